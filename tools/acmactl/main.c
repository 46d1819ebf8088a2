// SPDX-License-Identifier: GPL-2.0
/*
 * main.c - acmactl: DAMON_ACMA's status and settings
 *
 * The operator's view of issue #7 from the machine itself: what DAMON_ACMA
 * does (status.c) and what it is told to do (set.c), read from and
 * written to sysfs (sysfs.c), or from a captured tree with --sysroot.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include "atomicfile.h"
#include "cmdline.h"
#include "exitcodes.h"
#include "metrics.h"
#include "set.h"
#include "status.h"
#include "sysfs.h"
#include "version.h"

static void usage(FILE *f)
{
	fputs("Usage: acmactl [--sysroot DIR] [status] [--format FORMAT | --json]\n"
	      "                [-o COLUMNS] [--output-file FILE]\n"
	      "       acmactl [--sysroot DIR] set [--dry-run] KEY=VALUE...\n"
	      "\n"
	      "Shows and sets DAMON_ACMA, the kernel's memory auto-scaling\n"
	      "(/sys/module/damon_acma/parameters), with the memory blocks grouped by DRAM\n"
	      "rank and the ranks' power (/sys/devices/system/dram_power).\n"
	      "\n"
	      "Commands:\n"
	      "  status           (the default) DAMON_ACMA's state and settings, its schemes'\n"
	      "                   statistics, the memory blocks by rank, the DRAM power\n"
	      "  set KEY=VALUE... check new settings, write them and, while DAMON_ACMA\n"
	      "                   runs, commit them (commit_inputs); on a refused commit\n"
	      "                   the old values are written back\n"
	      "\n"
	      "Options:\n"
	      "  --format FORMAT  status as text (the default), json, openmetrics (OpenMetrics\n"
	      "                   1.0) or prometheus (the Prometheus text format 0.0.4 that\n"
	      "                   node_exporter's textfile collector reads)\n"
	      "  --json           the same as --format=json: one JSON object; - is null there\n"
	      "  -o, --output COLUMNS\n"
	      "                   the columns of the ranks table, text and JSON, in that\n"
	      "                   order: comma-separated names as in the header or JSON,\n"
	      "                   any case (RANK,STATE,TIME-OFF); +COLUMNS adds to the\n"
	      "                   default ones; --list-columns names them all\n"
	      "  --list-columns   print the names -o takes, comma-separated, and exit\n"
	      "  --output-file FILE\n"
	      "                   status: write to FILE, not stdout, replacing it whole (a\n"
	      "                   temporary file in its directory, then renamed): readers\n"
	      "                   see the old content or the new, never a part; FILE is left\n"
	      "                   as it was when nothing could be shown (exit 2 to 4)\n"
	      "  --dry-run        set: say what would be written, write nothing\n"
	      "  --sysroot DIR    use DIR/sys instead of /sys (a captured tree); paths in\n"
	      "                   messages stay as on the machine\n"
	      "  -h, --help       this help\n"
	      "  -V, --version    the version, \"acmactl (acma) 0~gitDATE.HASH\"\n"
	      "\n", f);
	status_help(f);
	fputs("\nMetrics (--format=openmetrics or prometheus; counters end in _total, the\n"
	      "state is a StateSet, one sample per state, label acma_rank_state; a figure\n"
	      "not read has no sample):\n", f);
	metrics_help(f);
	fputs("\nset keys (each at most once):\n", f);
	set_help(f);
	fputs("\n"
	      "Exit status:\n"
	      "  0  success\n"
	      "  1  partial: status: something could not be read (- in the output, stderr\n"
	      "     says what); set: some values were written, others refused\n"
	      "  2  usage error\n"
	      "  3  failure: set: nothing changed (a check failed, or every write or the\n"
	      "     commit was refused; the running configuration is kept); status: the\n"
	      "     output file could not be written; out of memory\n"
	      "  4  no DAMON_ACMA in this kernel (no /sys/module/damon_acma)\n", f);
}

enum format { FMT_TEXT, FMT_JSON, FMT_OPENMETRICS, FMT_PROMETHEUS, NR_FORMATS };

static const char *const format_names[NR_FORMATS] = {
	[FMT_TEXT] = "text", [FMT_JSON] = "json", [FMT_OPENMETRICS] = "openmetrics",
	[FMT_PROMETHEUS] = "prometheus",
};

static int print_status(struct sysfs *fs, enum format fmt, const struct colsel *sel,
			FILE *f)
{
	if (fmt == FMT_OPENMETRICS || fmt == FMT_PROMETHEUS)
		return metrics_print(fs, fmt == FMT_OPENMETRICS, f);
	return status_run(fs, fmt == FMT_JSON, sel, f);
}

/* status into FILE, replacing it whole when there is something to show. */
static int status_to_file(struct sysfs *fs, enum format fmt, const struct colsel *sel,
			  const char *path)
{
	struct atomic_file af;
	int ret;

	if (atomic_open(&af, path)) {
		fprintf(stderr, "acmactl: cannot write %s: %s\n", path, strerror(errno));
		return EXIT_FAILED;
	}
	ret = print_status(fs, fmt, sel, af.f);
	if (ret != EXIT_DONE && ret != EXIT_PARTIAL) {
		atomic_abort(&af);
		return ret;
	}
	if (atomic_commit(&af)) {
		fprintf(stderr, "acmactl: cannot write %s: %s\n", path, strerror(errno));
		return EXIT_FAILED;
	}
	return ret;
}

int main(int argc, char **argv)
{
	enum { OPT_JSON = 256, OPT_DRY_RUN, OPT_SYSROOT, OPT_FORMAT, OPT_OUTPUT_FILE,
	       OPT_LIST_COLUMNS };
	static const struct option longopts[] = {
		{ "json", no_argument, NULL, OPT_JSON },
		{ "format", required_argument, NULL, OPT_FORMAT },
		{ "output-file", required_argument, NULL, OPT_OUTPUT_FILE },
		{ "output", required_argument, NULL, 'o' },
		{ "list-columns", no_argument, NULL, OPT_LIST_COLUMNS },
		{ "dry-run", no_argument, NULL, OPT_DRY_RUN },
		{ "sysroot", required_argument, NULL, OPT_SYSROOT },
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{ NULL, 0, NULL, 0 },
	};
	struct sysfs fs = { .root = "", .prog = "acmactl" };
	enum format fmt = FMT_TEXT;
	bool formatted = false, dry_run = false;
	const char *cmd = "status", *output_file = NULL;
	struct colsel sel = { .nr = 0 };
	bool selected = false;
	char why[96];
	int opt, i;

	/* One line of our own instead of getopt's. */
	opterr = 0;
	while ((opt = getopt_long(argc, argv, "hVo:", longopts, NULL)) != -1) {
		switch (opt) {
		case OPT_JSON:
			if (formatted && fmt != FMT_JSON)
				return usage_error("acmactl", "--json and --format name two formats", NULL);
			fmt = FMT_JSON;
			formatted = true;
			break;
		case OPT_FORMAT:
			for (i = 0; i < NR_FORMATS; i++)
				if (!strcmp(optarg, format_names[i]))
					break;
			if (i == NR_FORMATS)
				return usage_error("acmactl", "--format wants text, json, openmetrics or prometheus",
						   optarg);
			if (formatted && fmt != (enum format)i)
				return usage_error("acmactl", "--json and --format name two formats", NULL);
			fmt = i;
			formatted = true;
			break;
		case 'o':
			if (status_columns(optarg, &sel, why, sizeof(why)))
				return usage_error("acmactl", why, "-o");
			selected = true;
			break;
		case OPT_LIST_COLUMNS:
			status_column_names(stdout);
			return EXIT_DONE;
		case OPT_OUTPUT_FILE:
			if (!*optarg)
				return usage_error("acmactl", "--output-file wants a file name", NULL);
			output_file = optarg;
			break;
		case OPT_DRY_RUN:
			dry_run = true;
			break;
		case OPT_SYSROOT:
			if (sysfs_set_root(&fs, optarg))
				return usage_error("acmactl", "--sysroot wants a directory", optarg);
			break;
		case 'h':
			usage(stdout);
			return EXIT_DONE;
		case 'V':
			return print_version("acmactl");
		default:
			return usage_error("acmactl", "unknown option or missing value",
					   argv[optind - 1]);
		}
	}
	if (optind < argc)
		cmd = argv[optind++];
	if (!strcmp(cmd, "status")) {
		if (optind < argc)
			return usage_error("acmactl", "status takes no argument", argv[optind]);
		if (dry_run)
			return usage_error("acmactl", "--dry-run goes with set", NULL);
		if (selected && fmt != FMT_TEXT && fmt != FMT_JSON)
			return usage_error("acmactl", "-o goes with the text and JSON status", NULL);
		if (output_file)
			return status_to_file(&fs, fmt, selected ? &sel : NULL, output_file);
		return print_status(&fs, fmt, selected ? &sel : NULL, stdout);
	}
	if (!strcmp(cmd, "set")) {
		if (formatted)
			return usage_error("acmactl", "--json and --format go with status", NULL);
		if (output_file)
			return usage_error("acmactl", "--output-file goes with status", NULL);
		if (selected)
			return usage_error("acmactl", "-o goes with status", NULL);
		return set_run(&fs, argc - optind, argv + optind, dry_run);
	}
	return usage_error("acmactl", "unknown command: status or set", cmd);
}
