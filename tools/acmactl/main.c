// SPDX-License-Identifier: GPL-2.0
/*
 * main.c - acmactl: DAMON_ACMA's status and settings
 *
 * The operator's view of issue #7 from the machine itself: what DAMON_ACMA
 * does (status.c) and what it is told to do (set.c), read from and
 * written to sysfs (sysfs.c), or from a captured tree with --sysroot.
 */
#define _GNU_SOURCE
#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include "cmdline.h"
#include "exitcodes.h"
#include "set.h"
#include "status.h"
#include "sysfs.h"

static void usage(FILE *f)
{
	fputs("Usage: acmactl [--sysroot DIR] [status] [--json]\n"
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
	      "  --json           status as one JSON object; - is null there\n"
	      "  --dry-run        set: say what would be written, write nothing\n"
	      "  --sysroot DIR    use DIR/sys instead of /sys (a captured tree); paths in\n"
	      "                   messages stay as on the machine\n"
	      "  -h, --help       this help\n"
	      "\n", f);
	status_help(f);
	fputs("\nset keys (each at most once):\n", f);
	set_help(f);
	fputs("\n"
	      "Exit status:\n"
	      "  0  success\n"
	      "  1  partial: status: something could not be read (- in the output, stderr\n"
	      "     says what); set: some values were written, others refused\n"
	      "  2  failure: set: nothing changed (a check failed, or every write or the\n"
	      "     commit was refused; the running configuration is kept); out of memory\n"
	      "  3  usage error\n"
	      "  4  no DAMON_ACMA in this kernel (no /sys/module/damon_acma)\n", f);
}

int main(int argc, char **argv)
{
	enum { OPT_JSON = 256, OPT_DRY_RUN, OPT_SYSROOT };
	static const struct option longopts[] = {
		{ "json", no_argument, NULL, OPT_JSON },
		{ "dry-run", no_argument, NULL, OPT_DRY_RUN },
		{ "sysroot", required_argument, NULL, OPT_SYSROOT },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct sysfs fs = { .root = "", .prog = "acmactl" };
	bool json = false, dry_run = false;
	const char *cmd = "status";
	int opt;

	/* One line of our own instead of getopt's. */
	opterr = 0;
	while ((opt = getopt_long(argc, argv, "h", longopts, NULL)) != -1) {
		switch (opt) {
		case OPT_JSON:
			json = true;
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
		return status_run(&fs, json);
	}
	if (!strcmp(cmd, "set")) {
		if (json)
			return usage_error("acmactl", "--json goes with status", NULL);
		return set_run(&fs, argc - optind, argv + optind, dry_run);
	}
	return usage_error("acmactl", "unknown command: status or set", cmd);
}
