/* SPDX-License-Identifier: GPL-2.0 */
/*
 * dram.h - the memory blocks grouped by DRAM rank, and the ranks' power
 */
#ifndef TOOLS_LIB_DRAM_H
#define TOOLS_LIB_DRAM_H

#include <stdbool.h>
#include <stddef.h>

#include "sysfs.h"

#define MEMORY_DIR	"/sys/devices/system/memory"
#define DRAM_POWER_DIR	"/sys/devices/system/dram_power"

/* The id of the group of memory blocks that no rank holds. */
#define DRAM_NO_RANK	(-1L)

/* A rank (a DRAM power domain) and its memory blocks. Text NULL: not read. */
struct dram_rank {
	long id;		/* its domainN, or DRAM_NO_RANK */
	char *dimm;
	char *ranges;		/* "0x100000000-0x11fffffff", comma-separated */
	char *blocks;		/* memory block ids as a list, "32-35" */
	struct value online;	/* blocks online */
	struct value offline;	/* blocks present but not online */
	struct value removed;	/* blocks not present (never known without a rank) */
	char *state;		/* on, powering-off, off, powering-on, failed */
	struct value power_mw;	/* in its state now */
	struct value on_power_mw;
	struct value time_off_ms;
	struct value transitions;
	struct value errors;
	char *last_error;
	struct value saved_uj;	/* energy saved by being off, microjoules */
};

/* What the kernel says of memory blocks and DRAM power. */
struct dram {
	struct value block_size;	/* bytes */
	struct value present_blocks;	/* memoryN directories */
	bool has_power;		/* /sys/devices/system/dram_power is there */
	char *backend;		/* ipmi, acpi or none */
	struct dram_rank *ranks;	/* the blocks no rank holds first (if any) */
	size_t nr_ranks;
	struct value power_mw;	/* all ranks, now */
	struct value all_on_mw;	/* all ranks, were they on */
	struct value saved_uj;	/* all ranks, so far */
};

int dram_read(struct sysfs *fs, struct dram *d);
void dram_free(struct dram *d);

#endif
