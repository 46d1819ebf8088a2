/* SPDX-License-Identifier: GPL-2.0 */
/*
 * acma.h - DAMON_ACMA's module parameters, its whole interface
 */
#ifndef TOOLS_LIB_ACMA_H
#define TOOLS_LIB_ACMA_H

#include <stdbool.h>

#include "sysfs.h"

/* There when the kernel has DAMON_ACMA (built in or loaded). */
#define ACMA_MODULE	"/sys/module/damon_acma"

/* One file a parameter, one line a file (kernel/mm/damon/acma.c). */
#define ACMA_PARAMS	ACMA_MODULE "/parameters/"

/* Longest parameter path, with room to spare. */
#define ACMA_PATH_MAX	128

bool acma_present(const struct sysfs *fs);
const char *acma_path(char *buf, const char *param);
int acma_read_num(struct sysfs *fs, const char *param, struct value *v);
int acma_read_flag(struct sysfs *fs, const char *param, bool *flag);
int acma_read_long(struct sysfs *fs, const char *param, long *num);
int acma_write(const struct sysfs *fs, const char *param, const char *value);

#endif
