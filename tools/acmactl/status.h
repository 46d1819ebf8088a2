/* SPDX-License-Identifier: GPL-2.0 */
/*
 * status.h - acmactl status: DAMON_ACMA, its schemes, the memory blocks by
 * rank and the DRAM power, at a glance
 */
#ifndef ACMACTL_STATUS_H
#define ACMACTL_STATUS_H

#include <stdbool.h>
#include <stdio.h>

#include "sysfs.h"
#include "table.h"

int status_run(struct sysfs *fs, bool json, const struct colsel *sel, FILE *f);
int status_columns(const char *spec, struct colsel *sel, char *why, size_t why_size);
void status_column_names(FILE *f);
void status_help(FILE *f);

#endif
