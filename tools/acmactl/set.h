/* SPDX-License-Identifier: GPL-2.0 */
/*
 * set.h - acmactl set: new DAMON_ACMA settings, checked, written and
 * committed
 */
#ifndef ACMACTL_SET_H
#define ACMACTL_SET_H

#include <stdbool.h>
#include <stdio.h>

#include "sysfs.h"

int set_run(struct sysfs *fs, int argc, char *const *argv, bool dry_run);
void set_help(FILE *f);

#endif
