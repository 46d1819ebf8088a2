/* SPDX-License-Identifier: GPL-2.0 */
/*
 * table.h - one table model (columns as data, rows of cells, summary
 * fields) printed as text for people or as JSON for programs; shared by
 * the operator tools in tools/
 */
#ifndef TOOLS_LIB_TABLE_H
#define TOOLS_LIB_TABLE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

enum cell_kind {
	CELL_NUMBER,	/* unsigned number, right-aligned */
	CELL_TEXT,
	CELL_MW,	/* milliwatts: "1350 mW" in text, a number in JSON */
	CELL_WATTS,	/* watts: "9 W" in text, a number in JSON */
	CELL_TIME,	/* Unix time, printed in UTC as 2026-12-03T08:33:15Z */
};

/* A column of the table, or a summary field under it. */
struct column {
	const char *name;	/* header, or the summary line's label */
	const char *key;	/* JSON member name */
	enum cell_kind kind;
	const char *help;	/* one sentence for --help */
};

struct cell {
	bool set;		/* false: unknown, "-" in text, null in JSON */
	unsigned long long num;	/* every kind but CELL_TEXT */
	char *text;		/* CELL_TEXT, owned by the table */
};

struct table {
	const char *rows_key;	/* JSON member holding the rows */
	const struct column *cols;
	size_t nr_cols;
	size_t nr_rows;
	struct cell *cells;	/* nr_rows * nr_cols, row by row */
	const struct column *sums;
	size_t nr_sums;
	struct cell *sum_cells;
};

struct table *table_new(const char *rows_key, const struct column *cols,
			size_t nr_cols, size_t nr_rows,
			const struct column *sums, size_t nr_sums);
void table_free(struct table *t);
struct cell *table_cell(struct table *t, size_t row, size_t col);
struct cell *table_sum(struct table *t, size_t i);
void cell_set_num(struct cell *c, unsigned long long num);
int cell_set_text(struct cell *c, const char *text);
int table_print_text(const struct table *t, FILE *f);
void table_print_json(const struct table *t, FILE *f);
void table_print_help(const struct column *cols, size_t nr_cols, FILE *f);

#endif
