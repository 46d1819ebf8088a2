/* SPDX-License-Identifier: GPL-2.0 */
/*
 * acma.h - DAMON_ACMA's module parameters, its whole interface
 */
#ifndef TOOLS_LIB_ACMA_H
#define TOOLS_LIB_ACMA_H

#include <stdbool.h>
#include <stddef.h>

#include "sysfs.h"

/* There when the kernel has DAMON_ACMA (built in or loaded). */
#define ACMA_MODULE	"/sys/module/damon_acma"

/* One file a parameter, one line a file (kernel/mm/damon/acma.c). */
#define ACMA_PARAMS	ACMA_MODULE "/parameters/"

/* Longest parameter path, with room to spare. */
#define ACMA_PATH_MAX	128

/* Why scale-down leaves a memory block alone for now (deferred_blocks). */
enum acma_defer_reason {
	ACMA_DEFER_IN_USE,	/* its data are in use and memory is under max_mem */
	ACMA_DEFER_UNMOVABLE,	/* its pages could not be migrated */
	NR_ACMA_DEFER_REASONS
};

extern const char *const acma_defer_reasons[NR_ACMA_DEFER_REASONS];

/* A line of deferred_blocks: "memoryN REASON SECONDS". */
struct acma_deferral {
	unsigned int block;		/* the N of memoryN */
	enum acma_defer_reason reason;
	unsigned int retry_s;		/* until scale-down tries it again */
	unsigned int line;		/* its line in the file, from 1 */
};

/* The blocks scale-down leaves alone for now, in the file's order. */
struct acma_deferred {
	bool ok;			/* false: the file could not be read */
	struct acma_deferral *blocks;
	size_t nr;
};

bool acma_present(const struct sysfs *fs);
const char *acma_path(char *buf, const char *param);
int acma_read_num(struct sysfs *fs, const char *param, struct value *v);
int acma_read_flag(struct sysfs *fs, const char *param, bool *flag);
int acma_read_long(struct sysfs *fs, const char *param, long *num);
int acma_read_deferred(struct sysfs *fs, struct acma_deferred *d);
void acma_deferred_free(struct acma_deferred *d);
int acma_write(const struct sysfs *fs, const char *param, const char *value);

#endif
