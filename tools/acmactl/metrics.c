// SPDX-License-Identifier: GPL-2.0
/*
 * metrics.c - acmactl status as metrics, for Prometheus
 *
 * The same figures as the status, named and scaled as Prometheus wants
 * them: an acma_ prefix, base units (bytes, seconds, watts, joules, ratios)
 * named at the end, counters for what only grows. Two exposition formats
 * of the same samples:
 *
 * - OpenMetrics 1.0 (--format=openmetrics): # TYPE, # UNIT and # HELP
 *   lines, counters' samples named NAME_total, the rank's power state a
 *   StateSet (one sample per state, the label named as the family), the
 *   rank's DIMM an Info, and # EOF at the end;
 * - the Prometheus text format 0.0.4 (--format=prometheus), what
 *   node_exporter's textfile collector and promtool parse: the same
 *   samples, but TYPE names the sample (NAME_total for a counter) and
 *   knows only counter and gauge (a StateSet or an Info is a gauge), and
 *   there is no UNIT or EOF.
 *
 * A figure that could not be read has no sample (the failure is said on
 * stderr and counted in acma_read_failures): no sample is never a wrong
 * one, where a 0 would be.
 */
#define _GNU_SOURCE
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "acma.h"
#include "dram.h"
#include "exitcodes.h"
#include "metrics.h"

enum type { GAUGE, COUNTER, STATESET, INFO };

struct family {
	const char *name;	/* the family: without _total or _info */
	enum type type;
	const char *unit;	/* the suffix of name it is in; NULL for none */
	const char *help;
	const char *source;	/* for --help: where the value comes from */
};

enum {
	F_ENABLED, F_MEM, F_MIN, F_MAX, F_OWNED, F_REMOVED, F_BLOCK_SIZE,
	F_PRESSURE, F_PRESSURE_TARGET, F_PRESSURE_INTERVAL, F_DEFERRED,
	F_RANK, F_RANK_STATE, F_RANK_POWER, F_RANK_ON_POWER, F_RANK_TRANSITIONS,
	F_RANK_OFF, F_RANK_SAVED, F_RANK_ERRORS,
	F_DRAM_POWER, F_DRAM_ALL_ON, F_DRAM_SAVED, F_FAILURES, NR_FAMILIES
};

static const struct family families[NR_FAMILIES] = {
	[F_ENABLED] = { "acma_enabled", GAUGE, NULL,
		"1 while DAMON_ACMA scales the memory, else 0.", "enabled" },
	[F_MEM] = { "acma_memory_bytes", GAUGE, "bytes",
		"The memory Linux has: online memory less the chunks DAMON_ACMA owns.",
		"mem_bytes" },
	[F_MIN] = { "acma_memory_min_bytes", GAUGE, "bytes",
		"DAMON_ACMA never scales the memory below this.", "min_mem" },
	[F_MAX] = { "acma_memory_max_bytes", GAUGE, "bytes",
		"DAMON_ACMA never scales the memory above this (max_mem 0, all, is the machine's memory).",
		"max_mem; 0: (memory blocks present + removed_blocks) x block size" },
	[F_OWNED] = { "acma_memory_owned_bytes", GAUGE, "bytes",
		"Chunks DAMON_ACMA took and has not given back, in memory blocks still present.",
		"owned_bytes" },
	[F_REMOVED] = { "acma_memory_removed_bytes", GAUGE, "bytes",
		"Memory in the memory blocks DAMON_ACMA removed.",
		"removed_blocks x block size" },
	[F_BLOCK_SIZE] = { "acma_memory_block_size_bytes", GAUGE, "bytes",
		"The size of a memory block, the unit of memory hot-remove.",
		"memory/block_size_bytes" },
	[F_PRESSURE] = { "acma_memory_pressure_ratio", GAUGE, "ratio",
		"Memory pressure measured: the share of the last interval some task stalled on memory (PSI some), seconds per second.",
		"measured_pressure_us / (quota_reset_interval_ms x 1000)" },
	[F_PRESSURE_TARGET] = { "acma_memory_pressure_target_ratio", GAUGE, "ratio",
		"Memory pressure DAMON_ACMA accepts: the stall per interval it keeps the pressure under, seconds per second.",
		"mem_pressure_us / (quota_reset_interval_ms x 1000)" },
	[F_PRESSURE_INTERVAL] = { "acma_memory_pressure_interval_seconds", GAUGE, "seconds",
		"The interval both pressures are measured over.",
		"quota_reset_interval_ms" },
	[F_DEFERRED] = { "acma_deferred_blocks", GAUGE, NULL,
		"Memory blocks scale-down leaves alone for now, by reason: in-use (their data are in use and memory is under max_mem) or unmovable (their pages could not be migrated).",
		"deferred_blocks, its lines by REASON (label reason); 0 without the file" },
	[F_RANK] = { "acma_rank", INFO, NULL,
		"A DRAM rank (power domain) and the DIMM that holds it.",
		"1 per rank, labels rank and dimm (dram_power/domainN/dimm)" },
	[F_RANK_STATE] = { "acma_rank_state", STATESET, NULL,
		"The rank's power state: 1 for the state it is in, 0 for the others.",
		"domainN/state" },
	[F_RANK_POWER] = { "acma_rank_power_watts", GAUGE, "watts",
		"What the rank draws in its power state now (the board's figure).",
		"domainN/power_mw" },
	[F_RANK_ON_POWER] = { "acma_rank_on_power_watts", GAUGE, "watts",
		"What the rank draws when on (the board's figure).",
		"domainN/on_power_mw" },
	[F_RANK_TRANSITIONS] = { "acma_rank_transitions", COUNTER, NULL,
		"Power state changes of the rank.", "domainN/transitions" },
	[F_RANK_OFF] = { "acma_rank_off_seconds", COUNTER, "seconds",
		"Time the rank spent powered off.", "domainN/time_off_ms" },
	[F_RANK_SAVED] = { "acma_rank_energy_saved_joules", COUNTER, "joules",
		"Energy the rank saved by being off: time off x (on power - off power).",
		"time_off_ms x (on_power_mw - power_mw when off, else 0)" },
	[F_RANK_ERRORS] = { "acma_rank_errors", COUNTER, NULL,
		"Firmware errors seen switching the rank.", "domainN/errors" },
	[F_DRAM_POWER] = { "acma_dram_power_watts", GAUGE, "watts",
		"What the DRAM ranks draw now: the sum of acma_rank_power_watts.",
		"the sum of power_mw" },
	[F_DRAM_ALL_ON] = { "acma_dram_all_on_power_watts", GAUGE, "watts",
		"What the DRAM ranks would draw were they all on.",
		"the sum of on_power_mw" },
	[F_DRAM_SAVED] = { "acma_dram_energy_saved_joules", COUNTER, "joules",
		"Energy the DRAM ranks saved by being off: the sum of acma_rank_energy_saved_joules.",
		"the sum over the ranks" },
	[F_FAILURES] = { "acma_read_failures", GAUGE, NULL,
		"Files acmactl could not read for this output (their samples are left out); 0 when all were read.",
		"acmactl's own" },
};

/* The power states of the driver's contract, the StateSet's states. */
static const char *const rank_states[] = {
	"on", "powering-off", "off", "powering-on", "failed",
};

#define NR_RANK_STATES	(sizeof(rank_states) / sizeof(*rank_states))

struct out {
	FILE *f;
	bool om;			/* OpenMetrics, else Prometheus 0.0.4 */
	const struct family *current;	/* whose metadata was printed last */
};

static const char *const type_names[] = {
	[GAUGE] = "gauge", [COUNTER] = "counter", [STATESET] = "stateset",
	[INFO] = "info",
};

/* A sample's name: the family's, with the suffix its type gives it. */
static const char *suffix(const struct family *fam)
{
	return fam->type == COUNTER ? "_total" : fam->type == INFO ? "_info" : "";
}

/* HELP text: backslash and newline escaped (the same in both formats). */
static void print_help(FILE *f, const char *s)
{
	for (; *s; s++) {
		if (*s == '\\')
			fputs("\\\\", f);
		else if (*s == '\n')
			fputs("\\n", f);
		else
			fputc(*s, f);
	}
}

/* A family's metadata, once, before its first sample. */
static void metadata(struct out *o, const struct family *fam)
{
	if (o->current == fam)
		return;
	o->current = fam;
	if (o->om) {
		fprintf(o->f, "# HELP %s ", fam->name);
		print_help(o->f, fam->help);
		fprintf(o->f, "\n# TYPE %s %s\n", fam->name, type_names[fam->type]);
		if (fam->unit)
			fprintf(o->f, "# UNIT %s %s\n", fam->name, fam->unit);
		return;
	}
	fprintf(o->f, "# HELP %s%s ", fam->name, suffix(fam));
	print_help(o->f, fam->help);
	fprintf(o->f, "\n# TYPE %s%s %s\n", fam->name, suffix(fam),
		fam->type == COUNTER ? "counter" : "gauge");
}

/* A label value: backslash, double quote and newline escaped. */
static void print_label_value(FILE *f, const char *s)
{
	for (; *s; s++) {
		if (*s == '\\' || *s == '"')
			fprintf(f, "\\%c", *s);
		else if (*s == '\n')
			fputs("\\n", f);
		else
			fputc(*s, f);
	}
}

/*
 * One sample: the family's name and suffix, labels given as name, value
 * pairs ended by NULL, and the value as text.
 */
static void sample(struct out *o, const struct family *fam, const char *value, ...)
{
	const char *name, *val;
	bool first = true;
	va_list ap;

	metadata(o, fam);
	fprintf(o->f, "%s%s", fam->name, suffix(fam));
	va_start(ap, value);
	while ((name = va_arg(ap, const char *))) {
		val = va_arg(ap, const char *);
		fprintf(o->f, "%s%s=\"", first ? "{" : ",", name);
		print_label_value(o->f, val);
		fputc('"', o->f);
		first = false;
	}
	va_end(ap);
	fprintf(o->f, "%s %s\n", first ? "" : "}", value);
}

/* num / 10^decimals, exactly, without trailing zeros: 1350 mW -> "1.35". */
static char *decimal(char *buf, size_t size, unsigned long long num,
		     unsigned int decimals)
{
	unsigned long long div = 1;
	unsigned int i, n;

	for (i = 0; i < decimals; i++)
		div *= 10;
	n = snprintf(buf, size, "%llu", num / div);
	if (num % div && n < size) {
		snprintf(buf + n, size - n, ".%0*llu", (int)decimals, num % div);
		n = strlen(buf);
		while (buf[n - 1] == '0')
			buf[--n] = '\0';
	}
	return buf;
}

/* The shortest text that reads back as x. */
static char *real(char *buf, size_t size, double x)
{
	int prec;

	for (prec = 1; prec < 17; prec++) {
		snprintf(buf, size, "%.*g", prec, x);
		if (strtod(buf, NULL) == x)
			return buf;
	}
	snprintf(buf, size, "%.17g", x);
	return buf;
}

/* A value, if read, with no labels: whole, or scaled by 10^-decimals. */
static void plain(struct out *o, int fam, struct value v, unsigned int decimals)
{
	char buf[48];

	if (v.ok)
		sample(o, &families[fam], decimal(buf, sizeof(buf), v.num, decimals), NULL);
}

/* A pressure in us per interval of interval_ms, as seconds per second. */
static void pressure(struct out *o, int fam, struct value us, struct value interval_ms)
{
	char buf[48];

	if (us.ok && interval_ms.ok && interval_ms.num)
		sample(o, &families[fam],
		       real(buf, sizeof(buf), (double)us.num / (interval_ms.num * 1000.0)), NULL);
}

/* The blocks deferred, by reason: a sample for each reason, 0 for none. */
static void deferred(struct out *o, const struct acma_deferred *def)
{
	unsigned int n[NR_ACMA_DEFER_REASONS] = { 0 };
	char buf[24];
	size_t i;

	if (!def->ok)
		return;
	for (i = 0; i < def->nr; i++)
		n[def->blocks[i].reason]++;
	for (i = 0; i < NR_ACMA_DEFER_REASONS; i++) {
		snprintf(buf, sizeof(buf), "%u", n[i]);
		sample(o, &families[F_DEFERRED], buf, "reason", acma_defer_reasons[i], NULL);
	}
}

static struct value product(struct value a, struct value b)
{
	return (struct value){ a.ok && b.ok, a.num * b.num };
}

/* Only the rows of real ranks: the blocks no rank holds have no figures. */
#define for_each_rank(d, r) \
	for (r = (d)->ranks; r < (d)->ranks + (d)->nr_ranks; r++) \
		if (r->id != DRAM_NO_RANK)

static void rank_value(struct out *o, int fam, const struct dram_rank *r,
		       struct value v, unsigned int decimals)
{
	char id[24], buf[48];

	if (!v.ok)
		return;
	snprintf(id, sizeof(id), "%ld", r->id);
	sample(o, &families[fam], decimal(buf, sizeof(buf), v.num, decimals),
	       "rank", id, NULL);
}

static void print_ranks(struct out *o, const struct dram *d)
{
	const struct dram_rank *r;
	char id[24];
	size_t s;

	for_each_rank(d, r) {
		snprintf(id, sizeof(id), "%ld", r->id);
		if (r->dimm)
			sample(o, &families[F_RANK], "1", "rank", id, "dimm", r->dimm, NULL);
	}
	for_each_rank(d, r) {
		snprintf(id, sizeof(id), "%ld", r->id);
		for (s = 0; r->state && s < NR_RANK_STATES; s++)
			sample(o, &families[F_RANK_STATE],
			       strcmp(r->state, rank_states[s]) ? "0" : "1", "rank", id,
			       families[F_RANK_STATE].name, rank_states[s], NULL);
	}
	for_each_rank(d, r)
		rank_value(o, F_RANK_POWER, r, r->power_mw, 3);
	for_each_rank(d, r)
		rank_value(o, F_RANK_ON_POWER, r, r->on_power_mw, 3);
	for_each_rank(d, r)
		rank_value(o, F_RANK_TRANSITIONS, r, r->transitions, 0);
	for_each_rank(d, r)
		rank_value(o, F_RANK_OFF, r, r->time_off_ms, 3);
	for_each_rank(d, r)
		rank_value(o, F_RANK_SAVED, r, r->saved_uj, 6);
	for_each_rank(d, r)
		rank_value(o, F_RANK_ERRORS, r, r->errors, 0);
}

/**
 * metrics_print() - acmactl status --format=openmetrics or prometheus
 * @fs: the root; what cannot be read is said on stderr and left out
 * @openmetrics: OpenMetrics 1.0, else the Prometheus text format 0.0.4
 * @f: where
 *
 * Return: EXIT_DONE, EXIT_PARTIAL when something could not be read,
 * EXIT_NO_ACMA without DAMON_ACMA, EXIT_FAILED when out of memory.
 */
int metrics_print(struct sysfs *fs, bool openmetrics, FILE *f)
{
	struct out o = { .f = f, .om = openmetrics };
	struct value mem, min, max, owned, removed, target, measured, interval;
	struct value flag = { false, 0 }, blocks;
	struct acma_deferred def;
	struct dram d;
	char buf[24];
	bool enabled;

	if (!acma_present(fs))
		return EXIT_NO_ACMA;
	if (!acma_read_flag(fs, "enabled", &enabled))
		flag = (struct value){ true, enabled };
	acma_read_num(fs, "mem_bytes", &mem);
	acma_read_num(fs, "min_mem", &min);
	acma_read_num(fs, "max_mem", &max);
	acma_read_num(fs, "owned_bytes", &owned);
	acma_read_num(fs, "removed_blocks", &removed);
	acma_read_num(fs, "mem_pressure_us", &target);
	acma_read_num(fs, "measured_pressure_us", &measured);
	acma_read_num(fs, "quota_reset_interval_ms", &interval);
	acma_read_deferred(fs, &def);
	if (dram_read(fs, &d)) {
		dram_free(&d);
		acma_deferred_free(&def);
		fprintf(stderr, "acmactl: out of memory\n");
		return EXIT_FAILED;
	}
	/* max_mem 0: all the memory the machine has, as acma-trace gives it */
	blocks = (struct value){ d.present_blocks.ok && removed.ok,
				 d.present_blocks.num + removed.num };
	if (max.ok && !max.num)
		max = product(blocks, d.block_size);

	plain(&o, F_ENABLED, flag, 0);
	plain(&o, F_MEM, mem, 0);
	plain(&o, F_MIN, min, 0);
	plain(&o, F_MAX, max, 0);
	plain(&o, F_OWNED, owned, 0);
	plain(&o, F_REMOVED, product(removed, d.block_size), 0);
	plain(&o, F_BLOCK_SIZE, d.block_size, 0);
	pressure(&o, F_PRESSURE, measured, interval);
	pressure(&o, F_PRESSURE_TARGET, target, interval);
	plain(&o, F_PRESSURE_INTERVAL, interval, 3);
	deferred(&o, &def);
	acma_deferred_free(&def);
	print_ranks(&o, &d);
	if (d.has_power) {
		plain(&o, F_DRAM_POWER, d.power_mw, 3);
		plain(&o, F_DRAM_ALL_ON, d.all_on_mw, 3);
		plain(&o, F_DRAM_SAVED, d.saved_uj, 6);
	}
	dram_free(&d);
	snprintf(buf, sizeof(buf), "%u", fs->failures);
	sample(&o, &families[F_FAILURES], buf, NULL);
	if (o.om)
		fputs("# EOF\n", f);
	return fs->failures ? EXIT_PARTIAL : EXIT_DONE;
}

/**
 * metrics_help() - the metrics, one a line, and where they come from
 * @f: where
 */
void metrics_help(FILE *f)
{
	size_t i, w = 0;
	char name[64];

	for (i = 0; i < NR_FAMILIES; i++)
		if (strlen(families[i].name) + strlen(suffix(&families[i])) > w)
			w = strlen(families[i].name) + strlen(suffix(&families[i]));
	for (i = 0; i < NR_FAMILIES; i++) {
		snprintf(name, sizeof(name), "%s%s", families[i].name, suffix(&families[i]));
		fprintf(f, "  %-*s  %-8s  %s\n", (int)w, name, type_names[families[i].type],
			families[i].source);
	}
}
