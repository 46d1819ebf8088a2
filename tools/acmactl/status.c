// SPDX-License-Identifier: GPL-2.0
/*
 * status.c - acmactl status: DAMON_ACMA, its schemes, the memory blocks by
 * rank and the DRAM power, at a glance
 *
 * Four tables of one model (tools/lib/table.c): DAMON_ACMA's state and
 * settings, its schemes' statistics, the memory blocks grouped by rank
 * with each rank's power, and the DRAM power sums. The text prints them
 * one after the other, the JSON makes one object of them, and --help
 * explains their columns, all from the same column lists below.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "acma.h"
#include "dram.h"
#include "exitcodes.h"
#include "idlist.h"
#include "status.h"
#include "table.h"

/* Microjoules in a joule: time_off_ms x mW. */
#define UJ_PER_J	1000000ULL

enum {
	SUM_ENABLED, SUM_KDAMOND, SUM_MEM, SUM_MIN, SUM_MAX, SUM_ORDER,
	SUM_TARGET, SUM_MEASURED, SUM_INTERVAL, SUM_OWNED, SUM_REMOVED,
	SUM_REMOVED_BYTES, SUM_BLOCK_SIZE, NR_ACMA_SUMS
};

static const struct column acma_sums[NR_ACMA_SUMS] = {
	[SUM_ENABLED] = { "Enabled", "enabled", CELL_FLAG,
		"Y while DAMON_ACMA scales the memory (enabled)" },
	[SUM_KDAMOND] = { "kdamond PID", "kdamond_pid", CELL_NUMBER,
		"DAMON's thread while enabled, - when not (kdamond_pid)" },
	[SUM_MEM] = { "Memory now", "mem_bytes", CELL_BYTES,
		"the memory Linux has: online memory less owned chunks (mem_bytes)" },
	[SUM_MIN] = { "Minimum", "min_mem", CELL_BYTES,
		"never scaled below this (min_mem)" },
	[SUM_MAX] = { "Maximum", "max_mem", CELL_BYTES,
		"never scaled above this (max_mem); all (0 in JSON): the machine's memory",
		.zero = "all" },
	[SUM_ORDER] = { "Chunk order", "scale_order", CELL_NUMBER,
		"chunks taken and given back are 2^order pages (scale_order)" },
	[SUM_TARGET] = { "Pressure target", "mem_pressure_us", CELL_US,
		"acceptable memory PSI (some) stall per interval (mem_pressure_us)" },
	[SUM_MEASURED] = { "Pressure measured", "measured_pressure_us", CELL_US,
		"memory PSI (some) stall of the last interval (measured_pressure_us)" },
	[SUM_INTERVAL] = { "Pressure interval", "quota_reset_interval_ms", CELL_MS,
		"the interval of both pressures (quota_reset_interval_ms)" },
	[SUM_OWNED] = { "Owned chunks", "owned_bytes", CELL_BYTES,
		"chunks taken and not given back, in blocks still present (owned_bytes)" },
	[SUM_REMOVED] = { "Removed blocks", "removed_blocks", CELL_NUMBER,
		"memory blocks DAMON_ACMA removed (removed_blocks)" },
	[SUM_REMOVED_BYTES] = { "Removed memory", "removed_bytes", CELL_BYTES,
		"Removed blocks x Memory block size" },
	[SUM_BLOCK_SIZE] = { "Memory block size", "block_size_bytes", CELL_BYTES,
		"/sys/devices/system/memory/block_size_bytes" },
};

/* The unsigned parameter each field shows; NULL: read otherwise. */
static const char *const acma_sum_params[NR_ACMA_SUMS] = {
	[SUM_MEM] = "mem_bytes",
	[SUM_MIN] = "min_mem",
	[SUM_MAX] = "max_mem",
	[SUM_ORDER] = "scale_order",
	[SUM_TARGET] = "mem_pressure_us",
	[SUM_MEASURED] = "measured_pressure_us",
	[SUM_INTERVAL] = "quota_reset_interval_ms",
	[SUM_OWNED] = "owned_bytes",
	[SUM_REMOVED] = "removed_blocks",
};

enum {
	SCH_NAME, SCH_TRIED, SCH_TRIED_BYTES, SCH_APPLIED, SCH_APPLIED_BYTES,
	SCH_EXCEEDS, NR_SCHEME_COLS
};

static const struct column scheme_cols[NR_SCHEME_COLS] = {
	[SCH_NAME] = { "SCHEME", "scheme", CELL_TEXT,
		"reclaim (pages cold memory out), scale-down (takes chunks), scale-up (gives them back)" },
	[SCH_TRIED] = { "TRIED", "tried_regions", CELL_NUMBER,
		"regions it was tried on (nr_*_tried_regions)" },
	[SCH_TRIED_BYTES] = { "TRIED BYTES", "tried_bytes", CELL_BYTES,
		"their size (bytes_*_tried_regions)" },
	[SCH_APPLIED] = { "APPLIED", "applied_regions", CELL_NUMBER,
		"regions it was applied to (nr_reclaimed_regions, nr_scaled_*_regions)" },
	[SCH_APPLIED_BYTES] = { "APPLIED BYTES", "applied_bytes", CELL_BYTES,
		"their size (bytes_reclaimed_regions, bytes_scaled_*_regions)" },
	[SCH_EXCEEDS] = { "QUOTA EXCEEDS", "quota_exceeds", CELL_NUMBER,
		"times it used up its time quota (nr_*_quota_exceeds)" },
};

/* Each scheme's name and statistics parameters (DEFINE_DAMON_MODULES_DAMOS_STATS_PARAMS). */
static const char *const schemes[][NR_SCHEME_COLS] = {
	{ "reclaim", "nr_reclaim_tried_regions", "bytes_reclaim_tried_regions",
	  "nr_reclaimed_regions", "bytes_reclaimed_regions",
	  "nr_reclaim_quota_exceeds" },
	{ "scale-down", "nr_scale_down_tried_regions", "bytes_scale_down_tried_regions",
	  "nr_scaled_down_regions", "bytes_scaled_down_regions",
	  "nr_scale_down_quota_exceeds" },
	{ "scale-up", "nr_scale_up_tried_regions", "bytes_scale_up_tried_regions",
	  "nr_scaled_up_regions", "bytes_scaled_up_regions",
	  "nr_scale_up_quota_exceeds" },
};

#define NR_SCHEMES	(sizeof(schemes) / sizeof(schemes[0]))

enum {
	RK_RANK, RK_DIMM, RK_RANGES, RK_BLOCKS, RK_ONLINE, RK_OFFLINE, RK_REMOVED,
	RK_STATE, RK_POWER, RK_ON_POWER, RK_TIME_OFF, RK_TRANSITIONS, RK_SAVED,
	RK_ERRORS, RK_LAST_ERROR, RK_DEFERRED, NR_RANK_COLS
};

static const struct column rank_cols[NR_RANK_COLS] = {
	[RK_RANK] = { "RANK", "rank", CELL_NUMBER,
		"the rank (dram_power/domainN); - for the memory blocks no rank holds" },
	[RK_DIMM] = { "DIMM", "dimm", CELL_TEXT, "the DIMM that holds it" },
	[RK_RANGES] = { "RANGES", "ranges", CELL_TEXT,
		"its physical memory, first-last, comma-separated", .json_only = true },
	[RK_BLOCKS] = { "BLOCKS", "blocks", CELL_TEXT,
		"the memory blocks it holds (memoryN), e.g. 32-35" },
	[RK_ONLINE] = { "ONLINE", "online", CELL_NUMBER, "those online" },
	[RK_OFFLINE] = { "OFFLINE", "offline", CELL_NUMBER,
		"those present but offline (or going offline)" },
	[RK_REMOVED] = { "REMOVED", "removed", CELL_NUMBER,
		"those not present; - for the blocks no rank holds" },
	[RK_STATE] = { "STATE", "state", CELL_TEXT,
		"its power state: on, powering-off, off, powering-on or failed" },
	[RK_POWER] = { "POWER", "power_mw", CELL_MW, "what it draws in that state" },
	[RK_ON_POWER] = { "ON POWER", "on_power_mw", CELL_MW,
		"what it draws when on", .json_only = true },
	[RK_TIME_OFF] = { "TIME OFF", "time_off_ms", CELL_DURATION,
		"time spent off so far, h:mm:ss (ms in JSON)" },
	[RK_TRANSITIONS] = { "TRANSITIONS", "transitions", CELL_NUMBER,
		"its power state changes so far", .json_only = true },
	[RK_SAVED] = { "SAVED", "saved_j", CELL_JOULES,
		"energy saved so far: TIME OFF x (ON POWER - power when off), J" },
	[RK_ERRORS] = { "ERRORS", "errors", CELL_NUMBER, "firmware errors seen" },
	[RK_LAST_ERROR] = { "LAST ERROR", "last_error", CELL_TEXT,
		"the last one, or none" },
	[RK_DEFERRED] = { "DEFERRED", "deferred", CELL_LIST,
		"its blocks scale-down leaves alone for now, BLOCK:REASON:RETRYs, or none",
		.zero = "none" },
};

enum { DS_BACKEND, DS_POWER, DS_ALL_ON, DS_SAVING, DS_SAVED, NR_DRAM_SUMS };

static const struct column dram_sums[NR_DRAM_SUMS] = {
	[DS_BACKEND] = { "DRAM power backend", "dram_backend", CELL_TEXT,
		"what powers ranks off and on: ipmi (the BMC), acpi or none" },
	[DS_POWER] = { "DRAM power now", "dram_power_mw", CELL_MW,
		"the sum of POWER" },
	[DS_ALL_ON] = { "All ranks on", "all_on_mw", CELL_MW,
		"the sum of ON POWER" },
	[DS_SAVING] = { "Saving now", "saving_mw", CELL_MW,
		"All ranks on less DRAM power now" },
	[DS_SAVED] = { "Energy saved", "energy_saved_j", CELL_JOULES,
		"the sum of SAVED, J" },
};

static void set_value(struct cell *c, struct value v)
{
	if (v.ok)
		cell_set_num(c, v.num);
}

static int set_text(struct cell *c, const char *text)
{
	return text ? cell_set_text(c, text) : 0;
}

static void fill_acma(struct sysfs *fs, struct table *t)
{
	struct value v;
	bool enabled;
	long pid;
	size_t i;

	if (!acma_read_flag(fs, "enabled", &enabled))
		cell_set_num(table_sum(t, SUM_ENABLED), enabled);
	/* -1: no kdamond, DAMON_ACMA is off */
	if (!acma_read_long(fs, "kdamond_pid", &pid) && pid >= 0)
		cell_set_num(table_sum(t, SUM_KDAMOND), pid);
	for (i = 0; i < NR_ACMA_SUMS; i++) {
		if (!acma_sum_params[i])
			continue;
		acma_read_num(fs, acma_sum_params[i], &v);
		set_value(table_sum(t, i), v);
	}
}

static void fill_schemes(struct sysfs *fs, struct table *t)
{
	struct value v;
	size_t s, c;

	for (s = 0; s < NR_SCHEMES; s++) {
		cell_set_text(table_cell(t, s, SCH_NAME), schemes[s][SCH_NAME]);
		for (c = SCH_NAME + 1; c < NR_SCHEME_COLS; c++) {
			acma_read_num(fs, schemes[s][c], &v);
			set_value(table_cell(t, s, c), v);
		}
	}
}

static int cmp_block(const void *a, const void *b)
{
	unsigned int x = *(const unsigned int *)a, y = *(const unsigned int *)b;

	return x < y ? -1 : x > y;
}

static struct value joules(struct value uj)
{
	return (struct value){ uj.ok, uj.num / UJ_PER_J };
}

static int fill_rank(struct table *t, size_t row, const struct dram_rank *r)
{
	if (r->id != DRAM_NO_RANK)
		cell_set_num(table_cell(t, row, RK_RANK), r->id);
	set_value(table_cell(t, row, RK_ONLINE), r->online);
	set_value(table_cell(t, row, RK_OFFLINE), r->offline);
	set_value(table_cell(t, row, RK_REMOVED), r->removed);
	set_value(table_cell(t, row, RK_POWER), r->power_mw);
	set_value(table_cell(t, row, RK_ON_POWER), r->on_power_mw);
	set_value(table_cell(t, row, RK_TIME_OFF), r->time_off_ms);
	set_value(table_cell(t, row, RK_TRANSITIONS), r->transitions);
	set_value(table_cell(t, row, RK_SAVED), joules(r->saved_uj));
	set_value(table_cell(t, row, RK_ERRORS), r->errors);
	return set_text(table_cell(t, row, RK_DIMM), r->dimm) ||
	       set_text(table_cell(t, row, RK_RANGES), r->ranges) ||
	       set_text(table_cell(t, row, RK_BLOCKS), r->blocks) ||
	       set_text(table_cell(t, row, RK_STATE), r->state) ||
	       set_text(table_cell(t, row, RK_LAST_ERROR), r->last_error);
}

/*
 * The DEFERRED cell of each row: the deferred blocks among those the row
 * holds. Unknown when deferred_blocks could not be read, or for a rank whose
 * blocks are unknown; a deferred block that no row holds is said.
 */
static int fill_deferred(struct sysfs *fs, struct table *t, const struct dram *d,
			 const struct acma_deferred *def)
{
	char path[ACMA_PATH_MAX], why[64], line[64], *text = NULL, *json = NULL;
	bool *placed, all_known = true;
	size_t row, i, nr, tlen, jlen;
	FILE *tf = NULL, *jf = NULL;
	struct idlist ids;
	int ret = -1;

	if (!def->ok)
		return 0;
	placed = calloc(def->nr + 1, sizeof(*placed));
	if (!placed)
		return -1;
	for (row = 0; row < d->nr_ranks; row++) {
		if (!d->ranks[row].blocks || idlist_parse(d->ranks[row].blocks, &ids)) {
			all_known = false;
			continue;
		}
		tf = open_memstream(&text, &tlen);
		jf = open_memstream(&json, &jlen);
		if (!tf || !jf) {
			idlist_free(&ids);
			goto out;
		}
		fputc('[', jf);
		for (i = 0, nr = 0; i < def->nr; i++) {
			const struct acma_deferral *b = &def->blocks[i];

			if (!bsearch(&b->block, ids.ids, ids.nr, sizeof(*ids.ids), cmp_block))
				continue;
			placed[i] = true;
			fprintf(tf, "%s%u:%s:%us", nr ? "," : "", b->block,
				acma_defer_reasons[b->reason], b->retry_s);
			fprintf(jf, "%s{\"block\": %u, \"reason\": \"%s\", \"retry_s\": %u}",
				nr ? ", " : "", b->block, acma_defer_reasons[b->reason],
				b->retry_s);
			nr++;
		}
		fputc(']', jf);
		idlist_free(&ids);
		if (fclose(tf) | fclose(jf)) {
			tf = jf = NULL;
			goto out;
		}
		tf = jf = NULL;
		if (cell_set_list(table_cell(t, row, RK_DEFERRED), nr, text, json))
			goto out;
		free(text);
		free(json);
		text = json = NULL;
	}
	/* a block removed since deferred_blocks was read, or a kernel's mistake */
	for (i = 0; all_known && i < def->nr; i++) {
		if (placed[i])
			continue;
		snprintf(why, sizeof(why), "line %u: memory%u is in no rank and not present",
			 def->blocks[i].line, def->blocks[i].block);
		snprintf(line, sizeof(line), "memory%u %s %u", def->blocks[i].block,
			 acma_defer_reasons[def->blocks[i].reason], def->blocks[i].retry_s);
		sysfs_failed(fs, acma_path(path, "deferred_blocks"), why, line);
	}
	ret = 0;
out:
	if (tf)
		fclose(tf);
	if (jf)
		fclose(jf);
	free(text);
	free(json);
	free(placed);
	return ret;
}

static int fill_dram(struct table *ranks, struct table *sums,
		     const struct dram *d)
{
	size_t i;

	for (i = 0; i < d->nr_ranks; i++)
		if (fill_rank(ranks, i, &d->ranks[i]))
			return -1;
	set_value(table_sum(sums, DS_POWER), d->power_mw);
	set_value(table_sum(sums, DS_ALL_ON), d->all_on_mw);
	if (d->power_mw.ok && d->all_on_mw.ok && d->all_on_mw.num >= d->power_mw.num)
		cell_set_num(table_sum(sums, DS_SAVING), d->all_on_mw.num - d->power_mw.num);
	set_value(table_sum(sums, DS_SAVED), joules(d->saved_uj));
	return set_text(table_sum(sums, DS_BACKEND), d->backend);
}

static int print_tables(struct table *const *tables, size_t nr, bool json,
			FILE *f)
{
	size_t i;

	if (json) {
		table_print_json_all((const struct table *const *)tables, nr, f);
		return 0;
	}
	for (i = 0; i < nr; i++) {
		if (i)
			fputc('\n', f);
		if (table_print_text(tables[i], f))
			return -1;
	}
	return 0;
}

/**
 * status_run() - acmactl status
 * @fs: the root; what cannot be read is said on stderr and shown as unknown
 * @json: print JSON rather than text
 * @sel: the columns of the ranks table, from status_columns(); NULL: the default
 * @f: where
 *
 * Return: EXIT_DONE, EXIT_PARTIAL when something could not be read,
 * EXIT_NO_ACMA without DAMON_ACMA, EXIT_FAILED when out of memory.
 */
int status_run(struct sysfs *fs, bool json, const struct colsel *sel, FILE *f)
{
	enum { T_ACMA, T_SCHEMES, T_RANKS, T_DRAM, NR_TABLES };
	struct table *t[NR_TABLES] = { NULL };
	struct value removed = { false, 0 };
	struct acma_deferred def;
	int ret = EXIT_FAILED;
	struct dram d;
	size_t i;

	if (!acma_present(fs))
		return EXIT_NO_ACMA;
	t[T_ACMA] = table_new(NULL, NULL, 0, 0, acma_sums, NR_ACMA_SUMS);
	t[T_SCHEMES] = table_new("schemes", scheme_cols, NR_SCHEME_COLS, NR_SCHEMES,
				 NULL, 0);
	if (!t[T_ACMA] || !t[T_SCHEMES])
		goto out;
	fill_acma(fs, t[T_ACMA]);
	fill_schemes(fs, t[T_SCHEMES]);
	acma_read_deferred(fs, &def);
	if (dram_read(fs, &d))
		goto out_dram;
	set_value(table_sum(t[T_ACMA], SUM_BLOCK_SIZE), d.block_size);
	if (table_sum(t[T_ACMA], SUM_REMOVED)->set && d.block_size.ok) {
		removed.ok = true;
		removed.num = table_sum(t[T_ACMA], SUM_REMOVED)->num * d.block_size.num;
	}
	set_value(table_sum(t[T_ACMA], SUM_REMOVED_BYTES), removed);
	t[T_RANKS] = table_new("ranks", rank_cols, NR_RANK_COLS, d.nr_ranks, NULL, 0);
	t[T_DRAM] = table_new(NULL, NULL, 0, 0, dram_sums, NR_DRAM_SUMS);
	if (t[T_RANKS] && sel)
		t[T_RANKS]->sel = *sel;
	if (!t[T_RANKS] || !t[T_DRAM] || fill_dram(t[T_RANKS], t[T_DRAM], &d) ||
	    fill_deferred(fs, t[T_RANKS], &d, &def) ||
	    print_tables(t, NR_TABLES, json, f))
		goto out_dram;
	ret = fs->failures ? EXIT_PARTIAL : EXIT_DONE;
out_dram:
	dram_free(&d);
	acma_deferred_free(&def);
out:
	for (i = 0; i < NR_TABLES; i++)
		table_free(t[i]);
	if (ret == EXIT_FAILED)
		fprintf(stderr, "acmactl: out of memory\n");
	return ret;
}

/**
 * status_columns() - the columns of the ranks table that -o names
 * @spec: as colsel_parse() takes it
 * @sel: set to them
 * @why: what is wrong, when it fails
 * @why_size: its size
 *
 * Return: 0, or -1 for a bad @spec.
 */
int status_columns(const char *spec, struct colsel *sel, char *why, size_t why_size)
{
	return colsel_parse(rank_cols, NR_RANK_COLS, spec, sel, why, why_size);
}

/**
 * status_column_names() - the names -o takes, on one line
 * @f: where
 */
void status_column_names(FILE *f)
{
	colsel_print_names(rank_cols, NR_RANK_COLS, f);
}

/**
 * status_help() - explain every line, column and JSON member of the status
 * @f: where
 */
void status_help(FILE *f)
{
	fputs("DAMON_ACMA (each line, then its JSON member and meaning; - or null when unread):\n", f);
	table_print_help(acma_sums, NR_ACMA_SUMS, f);
	fputs("\nSchemes, one a row (JSON: \"schemes\", in this order):\n", f);
	table_print_help(scheme_cols, NR_SCHEME_COLS, f);
	fputs("\nMemory blocks by rank, one rank a row (JSON: \"ranks\"), the blocks no rank\n"
	      "holds first (boot memory, or every block without DRAM power management):\n", f);
	table_print_help(rank_cols, NR_RANK_COLS, f);
	fputs("\nDRAM power (- or null without /sys/devices/system/dram_power, or when a\n"
	      "rank's figure is unread):\n", f);
	table_print_help(dram_sums, NR_DRAM_SUMS, f);
	fputs("\nSAVED takes a rank's power when off as 0 mW unless it is off now (POWER is\n"
	      "the power in the state it is in).\n", f);
	fputs("DEFERRED lists the row's blocks that scale-down gave up on for now\n"
	      "(deferred_blocks), comma-separated: BLOCK:REASON:RETRYs, REASON in-use (its\n"
	      "data are in use and memory is under max_mem) or unmovable (its pages could\n"
	      "not be migrated: pinned, or held by the kernel), RETRY the seconds until\n"
	      "scale-down tries it again (a minute, doubled each time it gives up on the\n"
	      "block again, up to 16 min); JSON: [{\"block\": N, \"reason\": REASON,\n"
	      "\"retry_s\": RETRY}, ...]. none (JSON []) also on kernels without the file.\n", f);
}
