// SPDX-License-Identifier: GPL-2.0
/*
 * table.c - one table model printed as text for people or as JSON for
 * programs
 *
 * Both printers walk the same columns and cells, so that a column added
 * to the model shows in the table, in the JSON and in --help at once.
 */
#define _GNU_SOURCE
#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "table.h"

/**
 * table_new() - an empty table, every cell unknown
 * @rows_key: JSON member that holds the rows; NULL for a table of summary
 *	fields only (no columns, no rows)
 * @cols: the columns, kept by reference
 * @nr_cols: number of @cols
 * @nr_rows: number of rows
 * @sums: the summary fields printed under the rows, kept by reference
 * @nr_sums: number of @sums
 *
 * Return: the table, or NULL when out of memory.
 */
struct table *table_new(const char *rows_key, const struct column *cols,
			size_t nr_cols, size_t nr_rows,
			const struct column *sums, size_t nr_sums)
{
	struct table *t = calloc(1, sizeof(*t));

	if (!t)
		return NULL;
	t->rows_key = rows_key;
	t->cols = cols;
	t->nr_cols = nr_cols;
	t->nr_rows = nr_rows;
	t->sums = sums;
	t->nr_sums = nr_sums;
	t->cells = calloc(nr_rows * nr_cols + 1, sizeof(*t->cells));
	t->sum_cells = calloc(nr_sums + 1, sizeof(*t->sum_cells));
	if (!t->cells || !t->sum_cells) {
		table_free(t);
		return NULL;
	}
	return t;
}

/**
 * table_free() - free a table and the text of its cells
 * @t: from table_new(), or NULL
 */
void table_free(struct table *t)
{
	size_t i;

	if (!t)
		return;
	for (i = 0; t->cells && i < t->nr_rows * t->nr_cols; i++) {
		free(t->cells[i].text);
		free(t->cells[i].json);
	}
	for (i = 0; t->sum_cells && i < t->nr_sums; i++) {
		free(t->sum_cells[i].text);
		free(t->sum_cells[i].json);
	}
	free(t->cells);
	free(t->sum_cells);
	free(t);
}

/**
 * table_cell() - a cell of a row
 * @t: the table
 * @row: row index
 * @col: column index
 *
 * Return: the cell.
 */
struct cell *table_cell(struct table *t, size_t row, size_t col)
{
	return &t->cells[row * t->nr_cols + col];
}

/**
 * table_sum() - the cell of a summary field
 * @t: the table
 * @i: index in the summary fields
 *
 * Return: the cell.
 */
struct cell *table_sum(struct table *t, size_t i)
{
	return &t->sum_cells[i];
}

/**
 * cell_set_num() - give a number (count, mW, W or Unix time) to a cell
 * @c: the cell
 * @num: the value
 */
void cell_set_num(struct cell *c, unsigned long long num)
{
	c->num = num;
	c->set = true;
}

/**
 * cell_set_text() - give a text to a cell
 * @c: the cell
 * @text: copied
 *
 * Return: 0, or -1 when out of memory.
 */
int cell_set_text(struct cell *c, const char *text)
{
	char *copy = strdup(text);

	if (!copy)
		return -1;
	free(c->text);
	c->text = copy;
	c->set = true;
	return 0;
}

/**
 * cell_set_list() - give a list of items to a cell (CELL_LIST)
 * @c: the cell
 * @nr: how many items; none shows as the column's zero text
 * @text: the items for people, e.g. "51:unmovable:52s,53:in-use:60s"; copied
 * @json: the items for programs, a JSON array, e.g. "[]"; copied
 *
 * Return: 0, or -1 when out of memory.
 */
int cell_set_list(struct cell *c, size_t nr, const char *text, const char *json)
{
	char *t = strdup(text), *j = strdup(json);

	if (!t || !j) {
		free(t);
		free(j);
		return -1;
	}
	free(c->text);
	free(c->json);
	c->text = t;
	c->json = j;
	c->num = nr;
	c->set = true;
	return 0;
}

static void format_time(char *buf, size_t size, unsigned long long when)
{
	time_t t = when;
	struct tm tm;

	if (!gmtime_r(&t, &tm) || !strftime(buf, size, "%Y-%m-%dT%H:%M:%SZ", &tm))
		snprintf(buf, size, "%llu", when);
}

/*
 * @num in the largest of @units (each @base times the one before) it
 * reaches: whole when it is a whole number of that unit, else with two
 * decimals.
 */
static char *format_scaled(unsigned long long num, unsigned int base,
			   const char *const *units, size_t nr_units)
{
	unsigned long long unit = 1;
	size_t i = 0;
	char *s = NULL;

	while (i + 1 < nr_units && num / unit >= base) {
		unit *= base;
		i++;
	}
	if (num % unit)
		return asprintf(&s, "%.2f %s", (double)num / unit, units[i]) < 0 ?
		       NULL : s;
	return asprintf(&s, "%llu %s", num / unit, units[i]) < 0 ? NULL : s;
}

/* Milliwatts as watts, exactly, without trailing zeros: "1.35 W", "0 W". */
static char *format_mw(unsigned long long mw)
{
	char frac[8] = "";
	char *s = NULL;
	size_t n;

	if (mw % 1000) {
		snprintf(frac, sizeof(frac), ".%03llu", mw % 1000);
		n = strlen(frac);
		while (frac[n - 1] == '0')
			frac[--n] = '\0';
	}
	return asprintf(&s, "%llu%s W", mw / 1000, frac) < 0 ? NULL : s;
}

/* The cell as text people read; NULL when out of memory. */
static char *cell_text(const struct column *col, const struct cell *c)
{
	static const char *const bytes[] = { "B", "KiB", "MiB", "GiB", "TiB", "PiB" };
	static const char *const joules[] = { "J", "kJ", "MJ", "GJ", "TJ" };
	unsigned long long secs = c->num / 1000;
	char buf[32], *s = NULL;

	if (!c->set)
		return strdup("-");
	if (col->zero && col->kind != CELL_TEXT && !c->num)
		return strdup(col->zero);
	switch (col->kind) {
	case CELL_TEXT:
	case CELL_LIST:
		return strdup(c->text);
	case CELL_NUMBER:
		return asprintf(&s, "%llu", c->num) < 0 ? NULL : s;
	case CELL_MW:
		return format_mw(c->num);
	case CELL_TIME:
		format_time(buf, sizeof(buf), c->num);
		return strdup(buf);
	case CELL_BYTES:
		return format_scaled(c->num, 1024, bytes, sizeof(bytes) / sizeof(*bytes));
	case CELL_FLAG:
		return strdup(c->num ? "Y" : "N");
	case CELL_US:
		return asprintf(&s, "%llu us", c->num) < 0 ? NULL : s;
	case CELL_MS:
		return asprintf(&s, "%llu ms", c->num) < 0 ? NULL : s;
	case CELL_DURATION:
		return asprintf(&s, "%llu:%02llu:%02llu", secs / 3600, secs / 60 % 60,
				secs % 60) < 0 ? NULL : s;
	case CELL_JOULES:
		return format_scaled(c->num, 1000, joules, sizeof(joules) / sizeof(*joules));
	}
	return NULL;
}

static bool right_aligned(const struct column *col)
{
	return col->kind != CELL_TEXT && col->kind != CELL_TIME &&
	       col->kind != CELL_FLAG && col->kind != CELL_LIST;
}

/**
 * table_print_text() - print the table for people
 * @t: the table
 * @f: where
 *
 * Columns are as wide as their widest cell and two blanks apart, numbers
 * right-aligned, JSON-only columns left out; the summary fields follow
 * after a blank line, one a line (a table without columns prints just
 * them).
 *
 * Return: 0, or -1 when out of memory.
 */
/* The columns to print, by index, in order: the selection, or the default. */
static size_t shown_columns(const struct table *t, bool json, size_t *idx)
{
	size_t c, n = 0;

	if (t->sel.nr) {
		memcpy(idx, t->sel.idx, t->sel.nr * sizeof(*idx));
		return t->sel.nr;
	}
	for (c = 0; c < t->nr_cols; c++)
		if (json || !t->cols[c].json_only)
			idx[n++] = c;
	return n;
}

int table_print_text(const struct table *t, FILE *f)
{
	size_t n = t->nr_rows * t->nr_cols, r, i, c, label = 0, nr_shown;
	char **text = calloc(n + 1, sizeof(*text));
	size_t *width = calloc(t->nr_cols + 1, sizeof(*width));
	size_t *shown = calloc(t->nr_cols + 1, sizeof(*shown));
	int ret = -1;

	if (!text || !width || !shown)
		goto out;
	nr_shown = shown_columns(t, false, shown);
	for (c = 0; c < t->nr_cols; c++)
		width[c] = strlen(t->cols[c].name);
	for (r = 0; r < t->nr_rows; r++) {
		for (i = 0; i < nr_shown; i++) {
			char *s;

			c = shown[i];
			s = cell_text(&t->cols[c], &t->cells[r * t->nr_cols + c]);
			if (!s)
				goto out;
			text[r * t->nr_cols + c] = s;
			if (strlen(s) > width[c])
				width[c] = strlen(s);
		}
	}
	for (r = 0; r <= t->nr_rows; r++) {
		for (i = 0; i < nr_shown; i++) {
			bool last = i + 1 == nr_shown;
			const char *s;

			c = shown[i];
			s = r ? text[(r - 1) * t->nr_cols + c] : t->cols[c].name;
			if (right_aligned(&t->cols[c]))
				fprintf(f, "%*s", (int)width[c], s);
			else if (last)
				fputs(s, f);
			else
				fprintf(f, "%-*s", (int)width[c], s);
			fputs(last ? "\n" : "  ", f);
		}
	}
	if (t->nr_sums && t->nr_cols)
		fputc('\n', f);
	for (c = 0; c < t->nr_sums; c++)
		if (!t->sums[c].json_only && strlen(t->sums[c].name) > label)
			label = strlen(t->sums[c].name);
	for (c = 0; c < t->nr_sums; c++) {
		char *s;

		if (t->sums[c].json_only)
			continue;
		s = cell_text(&t->sums[c], &t->sum_cells[c]);

		if (!s)
			goto out;
		fprintf(f, "%s:%*s%s\n", t->sums[c].name,
			(int)(label - strlen(t->sums[c].name) + 1), "", s);
		free(s);
	}
	ret = 0;
out:
	for (r = 0; text && r < n; r++)
		free(text[r]);
	free(text);
	free(width);
	free(shown);
	return ret;
}

static void json_string(const char *s, FILE *f)
{
	fputc('"', f);
	for (; *s; s++) {
		if (*s == '"' || *s == '\\')
			fprintf(f, "\\%c", *s);
		else if ((unsigned char)*s < 0x20)
			fprintf(f, "\\u%04x", *s);
		else
			fputc(*s, f);
	}
	fputc('"', f);
}

/**
 * json_quote() - a string as a JSON string, quotes and escapes included
 * @s: the string
 *
 * Return: the JSON text, to free; NULL when out of memory.
 */
char *json_quote(const char *s)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	if (!f)
		return NULL;
	json_string(s, f);
	if (fclose(f)) {
		free(buf);
		return NULL;
	}
	return buf;
}

static void json_value(const struct column *col, const struct cell *c, FILE *f)
{
	char buf[32];

	if (!c->set) {
		fputs("null", f);
		return;
	}
	switch (col->kind) {
	case CELL_TEXT:
		json_string(c->text, f);
		break;
	case CELL_TIME:
		format_time(buf, sizeof(buf), c->num);
		json_string(buf, f);
		break;
	case CELL_FLAG:
		fputs(c->num ? "true" : "false", f);
		break;
	case CELL_LIST:
		fputs(c->json, f);
		break;
	default:
		fprintf(f, "%llu", c->num);
		break;
	}
}

/* Start a member of the object: after "{" or after the previous member. */
static void json_member(const char *key, bool *first, FILE *f)
{
	fputs(*first ? "\n  " : ",\n  ", f);
	*first = false;
	json_string(key, f);
	fputs(": ", f);
}

/* The table's members: its rows under t->rows_key, then its summary fields. */
static void json_members(const struct table *t, bool *first, FILE *f)
{
	size_t shown[TABLE_MAX_COLS + 1], nr_shown, r, c, i;

	if (t->rows_key && t->rows_unknown) {
		json_member(t->rows_key, first, f);
		fputs("null", f);
	} else if (t->rows_key) {
		nr_shown = t->sel.nr ? shown_columns(t, true, shown) : t->nr_cols;
		json_member(t->rows_key, first, f);
		fprintf(f, "[%s", t->nr_rows ? "\n" : "");
		for (r = 0; r < t->nr_rows; r++) {
			fputs("    {", f);
			for (i = 0; i < nr_shown; i++) {
				c = t->sel.nr ? shown[i] : i;
				json_string(t->cols[c].key, f);
				fputs(": ", f);
				json_value(&t->cols[c], &t->cells[r * t->nr_cols + c], f);
				if (i + 1 < nr_shown)
					fputs(", ", f);
			}
			fprintf(f, "}%s\n", r + 1 < t->nr_rows ? "," : "");
		}
		fprintf(f, "%s]", t->nr_rows ? "  " : "");
	}
	for (c = 0; c < t->nr_sums; c++) {
		json_member(t->sums[c].key, first, f);
		json_value(&t->sums[c], &t->sum_cells[c], f);
	}
}

/**
 * table_print_json_all() - print tables for programs, as one JSON object
 * @tables: the tables, their members in this order
 * @nr_tables: how many
 * @f: where
 *
 * The members of each table: its rows as an array of objects (one a line)
 * under its rows_key, then its summary fields; unknown values are null.
 */
void table_print_json_all(const struct table *const *tables, size_t nr_tables,
			  FILE *f)
{
	bool first = true;
	size_t i;

	fputc('{', f);
	for (i = 0; i < nr_tables; i++)
		json_members(tables[i], &first, f);
	fputs("\n}\n", f);
}

/**
 * table_print_json() - print the table for programs
 * @t: the table
 * @f: where
 *
 * One object: the members of table_print_json_all().
 */
void table_print_json(const struct table *t, FILE *f)
{
	table_print_json_all(&t, 1, f);
}

/**
 * table_print_help() - one line per column: its name, JSON member and meaning
 * @cols: the columns or summary fields
 * @nr_cols: how many
 * @f: where
 */
void table_print_help(const struct column *cols, size_t nr_cols, FILE *f)
{
	size_t i, name = 0, key = 0;

	for (i = 0; i < nr_cols; i++) {
		if (strlen(cols[i].name) > name)
			name = strlen(cols[i].name);
		if (strlen(cols[i].key) > key)
			key = strlen(cols[i].key);
	}
	for (i = 0; i < nr_cols; i++)
		fprintf(f, "  %-*s  %-*s  %s%s\n", (int)name, cols[i].name, (int)key,
			cols[i].key, cols[i].json_only ? "(JSON only) " : "",
			cols[i].help);
}

/* A column name as -o takes it: letters and digits only, lower case. */
static void squash(const char *s, char *buf, size_t size)
{
	size_t n = 0;

	for (; *s && n + 1 < size; s++)
		if (isalnum((unsigned char)*s))
			buf[n++] = tolower((unsigned char)*s);
	buf[n] = '\0';
}

static int find_column(const struct column *cols, size_t nr_cols,
		       const char *name, size_t len)
{
	char want[64], have[64], given[64];
	size_t c;

	snprintf(given, sizeof(given), "%.*s", (int)len, name);
	squash(given, want, sizeof(want));
	if (!*want)
		return -1;
	for (c = 0; c < nr_cols; c++) {
		squash(cols[c].name, have, sizeof(have));
		if (!strcmp(want, have))
			return c;
		squash(cols[c].key, have, sizeof(have));
		if (!strcmp(want, have))
			return c;
	}
	return -1;
}

/**
 * colsel_parse() - the columns a user asks for, as lsmem -o takes them
 * @cols: the table's columns
 * @nr_cols: how many
 * @spec: comma-separated names, the header's or the JSON member's, in any
 *	case, blanks and punctuation ignored (TIME-OFF, time_off_ms); a
 *	leading + adds them to the default columns
 * @sel: set to the columns, in order
 * @why: set to what is wrong when it fails
 * @why_size: its size
 *
 * Return: 0, or -1 for an unknown or repeated name, or an empty list.
 */
int colsel_parse(const struct column *cols, size_t nr_cols, const char *spec,
		 struct colsel *sel, char *why, size_t why_size)
{
	const char *p = spec, *end;
	size_t c, i;
	int col;

	sel->nr = 0;
	if (*p == '+') {
		p++;
		for (c = 0; c < nr_cols && c < TABLE_MAX_COLS; c++)
			if (!cols[c].json_only)
				sel->idx[sel->nr++] = c;
	}
	if (!*p) {
		snprintf(why, why_size, "no column named");
		return -1;
	}
	for (; *p; p = *end ? end + 1 : end) {
		end = strchrnul(p, ',');
		col = find_column(cols, nr_cols, p, end - p);
		if (col < 0) {
			snprintf(why, why_size, "unknown column '%.*s'", (int)(end - p), p);
			return -1;
		}
		for (i = 0; i < sel->nr; i++)
			if (sel->idx[i] == (size_t)col)
				break;
		if (i < sel->nr) {
			snprintf(why, why_size, "column '%.*s' named twice (or already shown)",
				 (int)(end - p), p);
			return -1;
		}
		if (sel->nr == TABLE_MAX_COLS) {
			snprintf(why, why_size, "too many columns");
			return -1;
		}
		sel->idx[sel->nr++] = col;
		if (*end && !end[1]) {
			snprintf(why, why_size, "a column name after the last comma");
			return -1;
		}
	}
	return 0;
}

/**
 * colsel_print_names() - the names -o takes, comma-separated, on one line
 * @cols: the table's columns
 * @nr_cols: how many
 * @f: where
 */
void colsel_print_names(const struct column *cols, size_t nr_cols, FILE *f)
{
	size_t c, i;

	for (c = 0; c < nr_cols; c++) {
		if (c)
			fputs(",", f);
		for (i = 0; cols[c].name[i]; i++)
			if (isalnum((unsigned char)cols[c].name[i]))
				fputc(cols[c].name[i], f);
			else if (cols[c].name[i] == ' ')
				fputc('-', f);
	}
	fputc('\n', f);
}
