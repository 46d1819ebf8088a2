/* SPDX-License-Identifier: GPL-2.0 */
/*
 * sample.h - one row of the trace: DAMON_ACMA, the DRAM power and the
 * memory available, at one time
 */
#ifndef ACMA_TRACE_SAMPLE_H
#define ACMA_TRACE_SAMPLE_H

#include <stdio.h>

#include "sysfs.h"

/* The CSV columns, in their order. */
enum {
	COL_T, COL_MEM, COL_MIN, COL_MAX, COL_OWNED, COL_REMOVED_BLOCKS,
	COL_REMOVED_BYTES, COL_PRESSURE, COL_TARGET, COL_RANKS_ON, COL_RANKS_TOTAL,
	COL_DRAM_MW, COL_ALL_ON_MW, COL_MEM_AVAILABLE, NR_COLS
};

/* A row: every column's value, unknown ones empty in the CSV. */
struct sample {
	struct value v[NR_COLS];	/* COL_T in milliseconds */
};

int sample_read(struct sysfs *fs, unsigned long long t_ms, struct sample *s);
void sample_print_header(FILE *f);
void sample_print(const struct sample *s, FILE *f);
void sample_help(FILE *f);

#endif
