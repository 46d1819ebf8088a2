// SPDX-License-Identifier: GPL-2.0
/*
 * main.c - acma-trace: DAMON_ACMA and the DRAM power over time, as CSV
 *
 * Issue #7's timeline recorder, on the machine itself: a row (sample.c)
 * every interval, on a fixed grid from the first one, until a number of
 * rows, a duration or SIGINT/SIGTERM. Each row is flushed as it is
 * written: the guest sends the trace out of a serial port as it comes,
 * and scripts/plot.sh draws it.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <getopt.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "acma.h"
#include "cmdline.h"
#include "exitcodes.h"
#include "sample.h"
#include "sysfs.h"
#include "version.h"
#include "watch.h"

#define PROG		"acma-trace"

#define NS_PER_US	1000ULL
#define NS_PER_MS	1000000ULL
#define NS_PER_S	1000000000ULL

/* The times the options take, in microseconds. */
static const struct unit time_units[] = {
	{ "ms", 1000ULL },
	{ "s", 1000000ULL },
	{ "m", 60000000ULL },
	{ "h", 3600000000ULL },
	{ NULL, 0 },
};

/* What the command line asks. */
struct trace {
	unsigned long long interval_ns;
	bool has_duration;
	unsigned long long duration_ns;
	unsigned long long samples;	/* 0: no limit */
	const char *output;		/* NULL: stdout */
	bool on_change;			/* also a row on a rank's change */
};

static void usage(FILE *f)
{
	fputs("Usage: acma-trace [-i INTERVAL] [-d DURATION] [-n N] [-e] [-o FILE]\n"
	      "                  [--sysroot DIR]\n"
	      "\n"
	      "Records DAMON_ACMA, the kernel's memory auto-scaling\n"
	      "(/sys/module/damon_acma/parameters), the DRAM power domains\n"
	      "(/sys/devices/system/dram_power) and the memory available (/proc/meminfo)\n"
	      "over time, as CSV: a header line, then a row every INTERVAL, each flushed as\n"
	      "it is written. It stops after DURATION or N rows, whichever comes first, or\n"
	      "else on SIGINT or SIGTERM, and exits 0 with every row written.\n"
	      "\n"
	      "Options:\n"
	      "  -i, --interval INTERVAL  time between rows (default 1s); a row that cannot\n"
	      "                           be on time is left out, the next keeps the grid\n"
	      "  -d, --duration DURATION  stop after DURATION: rows at 0, INTERVAL,\n"
	      "                           2 x INTERVAL, ... up to DURATION\n"
	      "  -n, --samples N          stop after N rows\n"
	      "  -e, --on-change          also a row as soon as a rank's power state\n"
	      "                           changes (the DRAM power driver wakes poll(2) on\n"
	      "                           its domainN/state), off the grid, at its own time\n"
	      "  -o, --output FILE        write the CSV to FILE (made or emptied), not stdout\n"
	      "  --sysroot DIR            read DIR/sys and DIR/proc instead of /sys and /proc\n"
	      "                           (a captured tree); messages name the files as on\n"
	      "                           the machine\n"
	      "  -h, --help               this help\n"
	      "  -V, --version            the version, \"acma-trace (acma) 0~gitDATE.HASH\"\n"
	      "\n"
	      "INTERVAL and DURATION are a whole number and a unit: ms, s, m or h (500ms, 60s).\n"
	      "\n"
	      "Columns (sizes in bytes; an empty field is unknown; the rank columns,\n"
	      "ranks_on to all_on_mw, are empty on a machine without DRAM power\n"
	      "management, a VM guest):\n", f);
	sample_help(f);
	fputs("\n"
	      "A file that cannot be read gives an empty field and a line on stderr, said\n"
	      "again only when the messages of a row differ from those of the row before.\n"
	      "\n"
	      "Exit status:\n"
	      "  0  success, also when some values could not be read\n"
	      "  2  usage error\n"
	      "  3  failure: the CSV could not be written; out of memory\n"
	      "  4  no DAMON_ACMA in this kernel (no /sys/module/damon_acma)\n", f);
}

/* A time with its unit, in nanoseconds. */
static int parse_time(const char *s, unsigned long long *ns)
{
	unsigned long long us;

	if (parse_with_unit(s, time_units, &us) || us > ~0ULL / NS_PER_US)
		return -1;
	*ns = us * NS_PER_US;
	return 0;
}

static unsigned long long now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * NS_PER_S + ts.tv_nsec;
}

/*
 * Read a row. Its messages are collected and said only when they differ
 * from the last row's (@last): a file broken for good is said once, not
 * every interval.
 */
static int read_row(struct sysfs *fs, unsigned long long t_ms, struct sample *s,
		    char **last)
{
	char *msgs = NULL;
	size_t len;
	int ret;

	/* NULL (out of memory): said on stderr as they come */
	fs->msgs = open_memstream(&msgs, &len);
	ret = sample_read(fs, t_ms, s);
	if (!fs->msgs)
		return ret;
	fclose(fs->msgs);
	fs->msgs = NULL;
	if (!msgs)
		return ret;
	if (strcmp(msgs, *last ? *last : ""))
		fputs(msgs, stderr);
	free(*last);
	*last = msgs;
	return ret;
}

static int cannot_write(const char *name)
{
	fprintf(stderr, PROG ": cannot write %s: %s\n", name, strerror(errno));
	return EXIT_FAILED;
}

/* Out at once, row by row: EXIT_DONE, or EXIT_FAILED said. */
static int flushed(FILE *out, const char *name)
{
	return fflush(out) || ferror(out) ? cannot_write(name) : EXIT_DONE;
}

static int trace_run(struct sysfs *fs, const struct trace *tr, FILE *out,
		     const char *name)
{
	unsigned long long start, next, rows = 0;
	enum watch_event ev;
	struct watch watch;
	char *last = NULL;
	struct sample s;
	sigset_t stop;
	int ret;

	/* Blocked, SIGINT and SIGTERM wait for the watch (a signalfd): a row is never cut. */
	sigemptyset(&stop);
	sigaddset(&stop, SIGINT);
	sigaddset(&stop, SIGTERM);
	sigprocmask(SIG_BLOCK, &stop, NULL);
	if (watch_init(&watch, fs, &stop, tr->on_change)) {
		fprintf(stderr, PROG ": cannot wait for signals: %s\n", strerror(errno));
		return EXIT_FAILED;
	}
	sample_print_header(out);
	ret = flushed(out, name);
	start = now_ns();
	while (ret == EXIT_DONE) {
		if (read_row(fs, (now_ns() - start) / NS_PER_MS, &s, &last)) {
			fprintf(stderr, PROG ": out of memory\n");
			ret = EXIT_FAILED;
			break;
		}
		sample_print(&s, out);
		ret = flushed(out, name);
		if (ret != EXIT_DONE || ++rows == tr->samples)
			break;
		/* the next time on the grid still ahead; a change comes in between */
		next = ((now_ns() - start) / tr->interval_ns + 1) * tr->interval_ns;
		if (tr->has_duration && next > tr->duration_ns)
			break;
		ev = watch_until(&watch, start + next);
		if (ev == WATCH_FAILED) {
			fprintf(stderr, PROG ": waiting: %s\n", strerror(errno));
			ret = EXIT_FAILED;
		}
		if (ev == WATCH_STOP || ev == WATCH_FAILED)
			break;
	}
	watch_free(&watch);
	free(last);
	return ret;
}

int main(int argc, char **argv)
{
	enum { OPT_SYSROOT = 256 };
	static const struct option longopts[] = {
		{ "interval", required_argument, NULL, 'i' },
		{ "duration", required_argument, NULL, 'd' },
		{ "samples", required_argument, NULL, 'n' },
		{ "on-change", no_argument, NULL, 'e' },
		{ "output", required_argument, NULL, 'o' },
		{ "sysroot", required_argument, NULL, OPT_SYSROOT },
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{ NULL, 0, NULL, 0 },
	};
	struct trace tr = { .interval_ns = NS_PER_S };
	struct sysfs fs = { .root = "", .prog = PROG };
	const char *end, *name;
	FILE *out;
	int opt, ret;

	/* One line of our own instead of getopt's. */
	opterr = 0;
	while ((opt = getopt_long(argc, argv, "i:d:n:eo:hV", longopts, NULL)) != -1) {
		switch (opt) {
		case 'i':
			if (parse_time(optarg, &tr.interval_ns) || !tr.interval_ns)
				return usage_error(PROG, "-i wants a time above 0 with ms, s, m or h",
						   optarg);
			break;
		case 'd':
			if (parse_time(optarg, &tr.duration_ns))
				return usage_error(PROG, "-d wants a time with ms, s, m or h", optarg);
			tr.has_duration = true;
			break;
		case 'n':
			if (parse_digits(optarg, &end, &tr.samples) || *end || !tr.samples)
				return usage_error(PROG, "-n wants a number above 0", optarg);
			break;
		case 'e':
			tr.on_change = true;
			break;
		case 'o':
			tr.output = optarg;
			break;
		case OPT_SYSROOT:
			if (sysfs_set_root(&fs, optarg))
				return usage_error(PROG, "--sysroot wants a directory", optarg);
			break;
		case 'h':
			usage(stdout);
			return EXIT_DONE;
		case 'V':
			return print_version(PROG);
		default:
			return usage_error(PROG, "unknown option or missing value",
					   argv[optind - 1]);
		}
	}
	if (optind < argc)
		return usage_error(PROG, "takes no argument", argv[optind]);
	if (!acma_present(&fs))
		return EXIT_NO_ACMA;
	name = tr.output ? tr.output : "stdout";
	out = tr.output ? fopen(tr.output, "w") : stdout;
	if (!out)
		return cannot_write(name);
	ret = trace_run(&fs, &tr, out, name);
	if (fclose(out) && ret == EXIT_DONE)
		ret = cannot_write(name);
	return ret;
}
