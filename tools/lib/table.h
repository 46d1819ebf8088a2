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

/*
 * What a cell holds. In JSON: a string for CELL_TEXT and CELL_TIME, true or
 * false for CELL_FLAG, the array its JSON holds for CELL_LIST, a number for
 * the others.
 */
enum cell_kind {
	CELL_NUMBER,	/* unsigned number, right-aligned */
	CELL_TEXT,
	CELL_MW,	/* milliwatts: "1.35 W" in text, mW in JSON */
	CELL_TIME,	/* Unix time, printed in UTC as 2026-12-03T08:33:15Z */
	CELL_BYTES,	/* bytes: "512 MiB", "3.19 GiB" in text */
	CELL_FLAG,	/* 0 or 1: "N" or "Y" in text, false or true in JSON */
	CELL_US,	/* microseconds: "1000 us" in text */
	CELL_MS,	/* milliseconds: "1000 ms" in text */
	CELL_DURATION,	/* milliseconds: "27:03:04" (h:mm:ss) in text */
	CELL_JOULES,	/* joules: "13 J", "116.64 kJ" in text */
	CELL_LIST,	/* items (num: how many): text in text, the column's zero when none */
};

/* A column of the table, or a summary field under it. */
struct column {
	const char *name;	/* header, or the summary line's label */
	const char *key;	/* JSON member name */
	enum cell_kind kind;
	const char *help;	/* one sentence for --help */
	const char *zero;	/* if set, the text of 0 (JSON keeps 0) */
	bool json_only;		/* left out of the text table */
};

struct cell {
	bool set;		/* false: unknown, "-" in text, null in JSON */
	unsigned long long num;	/* every kind but CELL_TEXT */
	char *text;		/* CELL_TEXT and CELL_LIST, owned by the table */
	char *json;		/* CELL_LIST: a JSON array, owned by the table */
};

/* The most columns a selection (-o) may name. */
#define TABLE_MAX_COLS	32

/* Columns chosen to print, by index, in the order to print them (-o). */
struct colsel {
	size_t idx[TABLE_MAX_COLS];
	size_t nr;		/* 0: the default, every column not json_only */
};

struct table {
	const char *rows_key;	/* JSON member holding the rows; NULL: no rows */
	bool rows_unknown;	/* the rows could not be read: null in JSON */
	const struct column *cols;
	size_t nr_cols;
	struct colsel sel;	/* the columns printed, in text and JSON */
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
int cell_set_list(struct cell *c, size_t nr, const char *text, const char *json);
int table_print_text(const struct table *t, FILE *f);
void table_print_json(const struct table *t, FILE *f);
char *json_quote(const char *s);
void table_print_json_all(const struct table *const *tables, size_t nr_tables,
			  FILE *f);
void table_print_help(const struct column *cols, size_t nr_cols, FILE *f);
int colsel_parse(const struct column *cols, size_t nr_cols, const char *spec,
		 struct colsel *sel, char *why, size_t why_size);
void colsel_print_names(const struct column *cols, size_t nr_cols, FILE *f);

#endif
