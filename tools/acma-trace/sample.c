// SPDX-License-Identifier: GPL-2.0
/*
 * sample.c - one row of the trace: DAMON_ACMA, the DRAM power and the
 * memory available, at one time
 *
 * The columns are data (name, source, meaning): the header, the rows and
 * --help walk the same list. Each row reads what acmactl status reads
 * (tools/lib: DAMON_ACMA's parameters, the memory blocks, the DRAM power
 * domains) and MemAvailable from /proc/meminfo. What cannot be read is an
 * empty field; a machine without DRAM power management (a VM guest) has
 * empty rank fields and no message.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "acma.h"
#include "cmdline.h"
#include "dram.h"
#include "sample.h"

#define MEMINFO		"/proc/meminfo"
#define MEM_AVAILABLE	"MemAvailable:"

/*
 * A column: its CSV name, the DAMON_ACMA parameter it shows (if one) and
 * its help, a line of --help a line of text. Sizes are in bytes.
 */
static const struct {
	const char *name;
	const char *param;
	const char *help;
} cols[NR_COLS] = {
	[COL_T] = { "t_s", NULL,
		"seconds since the first row, 3 decimals (CLOCK_MONOTONIC)" },
	[COL_MEM] = { "mem_bytes", "mem_bytes",
		"the memory Linux has: online memory less owned chunks" },
	[COL_MIN] = { "min_mem", "min_mem", "never scaled below this (min_mem)" },
	[COL_MAX] = { "max_mem", "max_mem",
		"never scaled above this (max_mem); its 0 (all) is given\n"
		"as the machine's memory: (memory blocks present +\n"
		"removed_blocks) x block size" },
	[COL_OWNED] = { "owned_bytes", "owned_bytes",
		"chunks taken and not given back, in blocks present" },
	[COL_REMOVED_BLOCKS] = { "removed_blocks", "removed_blocks",
		"memory blocks DAMON_ACMA removed" },
	[COL_REMOVED_BYTES] = { "removed_bytes", NULL,
		"removed_blocks x the memory block size\n"
		"(memory/block_size_bytes)" },
	[COL_PRESSURE] = { "pressure_us", "measured_pressure_us",
		"memory PSI \"some\" stall of the last interval, us\n"
		"(measured_pressure_us)" },
	[COL_TARGET] = { "pressure_target_us", "mem_pressure_us",
		"acceptable stall per interval, us (mem_pressure_us)" },
	[COL_RANKS_ON] = { "ranks_on", NULL,
		"DRAM ranks whose state is not off (powering-off,\n"
		"powering-on and failed count as on)" },
	[COL_RANKS_TOTAL] = { "ranks_total", NULL, "DRAM ranks (dram_power/domainN)" },
	[COL_DRAM_MW] = { "dram_mw", NULL,
		"DRAM power now, mW: the sum of the ranks' power_mw" },
	[COL_ALL_ON_MW] = { "all_on_mw", NULL,
		"DRAM power were every rank on, mW: the sum of\n"
		"on_power_mw" },
	[COL_MEM_AVAILABLE] = { "mem_available_bytes", NULL,
		"MemAvailable of /proc/meminfo" },
};

/* Bytes in a kB of /proc/meminfo. */
#define MEMINFO_KB	1024ULL

/* MemAvailable, given in kB on its line of /proc/meminfo. */
static void read_mem_available(struct sysfs *fs, struct value *v)
{
	static const struct unit kb[] = { { " kB", MEMINFO_KB }, { NULL, 0 } };
	char *text, *line, *end;

	if (sysfs_read_text(fs, MEMINFO, &text))
		return;
	for (line = text; line; line = end ? end + 1 : NULL) {
		end = strchr(line, '\n');
		if (end)
			*end = '\0';
		if (strncmp(line, MEM_AVAILABLE, strlen(MEM_AVAILABLE)))
			continue;
		line += strlen(MEM_AVAILABLE) + strspn(line + strlen(MEM_AVAILABLE), " ");
		if (parse_with_unit(line, kb, &v->num))
			sysfs_failed(fs, MEMINFO, "not a number of kB", line);
		else
			v->ok = true;
		break;
	}
	if (!line)
		sysfs_failed(fs, MEMINFO, "no " MEM_AVAILABLE " line", NULL);
	free(text);
}

static struct value product(struct value a, struct value b)
{
	return (struct value){ a.ok && b.ok, a.num * b.num };
}

/* The ranks' counts; left unknown without DRAM power management. */
static void count_ranks(const struct dram *d, struct sample *s)
{
	unsigned long long on = 0, total = 0;
	bool known = true;
	size_t i;

	if (!d->has_power)
		return;
	for (i = 0; i < d->nr_ranks; i++) {
		if (d->ranks[i].id == DRAM_NO_RANK)
			continue;
		total++;
		known &= d->ranks[i].state != NULL;
		on += d->ranks[i].state && strcmp(d->ranks[i].state, "off");
	}
	s->v[COL_RANKS_ON] = (struct value){ known, on };
	s->v[COL_RANKS_TOTAL] = (struct value){ true, total };
	s->v[COL_DRAM_MW] = d->power_mw;
	s->v[COL_ALL_ON_MW] = d->all_on_mw;
}

/**
 * sample_read() - read one row
 * @fs: the root; what cannot be read is said, counted and left unknown
 * @t_ms: its time, ms since the first sample
 * @s: the row
 *
 * Return: 0, or -1 when out of memory.
 */
int sample_read(struct sysfs *fs, unsigned long long t_ms, struct sample *s)
{
	struct value *removed = &s->v[COL_REMOVED_BLOCKS], blocks;
	struct dram d;
	size_t i;
	int ret;

	memset(s, 0, sizeof(*s));
	s->v[COL_T] = (struct value){ true, t_ms };
	for (i = 0; i < NR_COLS; i++)
		if (cols[i].param)
			acma_read_num(fs, cols[i].param, &s->v[i]);
	ret = dram_read(fs, &d);
	if (!ret) {
		s->v[COL_REMOVED_BYTES] = product(*removed, d.block_size);
		/* 0: all the memory the machine has, every block it had at the start */
		blocks = (struct value){ d.present_blocks.ok && removed->ok,
					 d.present_blocks.num + removed->num };
		if (s->v[COL_MAX].ok && !s->v[COL_MAX].num)
			s->v[COL_MAX] = product(blocks, d.block_size);
		count_ranks(&d, s);
	}
	dram_free(&d);
	read_mem_available(fs, &s->v[COL_MEM_AVAILABLE]);
	return ret;
}

/**
 * sample_print_header() - the CSV header line
 * @f: where
 */
void sample_print_header(FILE *f)
{
	size_t i;

	for (i = 0; i < NR_COLS; i++)
		fprintf(f, "%s%s", i ? "," : "", cols[i].name);
	fputc('\n', f);
}

/**
 * sample_print() - a row as a CSV line, unknown values empty
 * @s: the row
 * @f: where
 */
void sample_print(const struct sample *s, FILE *f)
{
	size_t i;

	for (i = 0; i < NR_COLS; i++) {
		if (i)
			fputc(',', f);
		if (!s->v[i].ok)
			continue;
		if (i == COL_T)
			fprintf(f, "%llu.%03llu", s->v[i].num / 1000, s->v[i].num % 1000);
		else
			fprintf(f, "%llu", s->v[i].num);
	}
	fputc('\n', f);
}

/**
 * sample_help() - every column: its name and meaning
 * @f: where
 */
void sample_help(FILE *f)
{
	size_t i, width = 0;
	const char *line, *nl;

	for (i = 0; i < NR_COLS; i++)
		if (strlen(cols[i].name) > width)
			width = strlen(cols[i].name);
	for (i = 0; i < NR_COLS; i++) {
		fprintf(f, "  %-*s", (int)width, cols[i].name);
		for (line = cols[i].help; line; line = nl ? nl + 1 : NULL) {
			nl = strchr(line, '\n');
			fprintf(f, "%*s%.*s\n", line == cols[i].help ? 2 : (int)width + 4, "",
				nl ? (int)(nl - line) : (int)strlen(line), line);
		}
	}
}
