// SPDX-License-Identifier: GPL-2.0
/*
 * set.c - acmactl set: new DAMON_ACMA settings, checked, written and
 * committed
 *
 * DAMON_ACMA stages what is written to its parameters: it checks and
 * applies them when it is enabled, or, while it runs, when Y is written
 * to commit_inputs, which refuses (EINVAL) what it would not run with and
 * keeps the running configuration. acmactl checks what it can first (the
 * kernel's own rules), writes, commits, and on a refused commit writes
 * the old values back, so that the parameters show what runs.
 */
#define _GNU_SOURCE
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "acma.h"
#include "cmdline.h"
#include "exitcodes.h"
#include "set.h"

enum { KEY_MIN, KEY_MAX, KEY_PRESSURE, KEY_ORDER, NR_KEYS };

/* Highest page order a value may name: the kernel checks the real bounds. */
#define ORDER_MAX	63

/* Bytes, or a number with K, M, G or T (powers of 1024), as memparse(). */
static int parse_size(const char *s, unsigned long long *v)
{
	static const char suffixes[] = "KMGT";
	const char *end, *suffix;
	unsigned int shift;

	if (parse_digits(s, &end, v))
		return -1;
	if (!*end)
		return 0;
	suffix = strchr(suffixes, toupper((unsigned char)*end));
	if (!suffix || end[1])
		return -1;
	shift = 10 * (suffix - suffixes + 1);
	if (*v > ~0ULL >> shift)
		return -1;
	*v <<= shift;
	return 0;
}

/* A size, or all (0: the machine's memory). */
static int parse_max(const char *s, unsigned long long *v)
{
	if (!strcmp(s, "all")) {
		*v = 0;
		return 0;
	}
	return parse_size(s, v);
}

/* Microseconds, from a time in us or ms; not 0. */
static int parse_pressure(const char *s, unsigned long long *v)
{
	static const struct unit units[] = { { "us", 1 }, { "ms", 1000 }, { NULL, 0 } };

	return parse_with_unit(s, units, v) || !*v ? -1 : 0;
}

static int parse_order(const char *s, unsigned long long *v)
{
	const char *end;

	return parse_digits(s, &end, v) || *end || *v > ORDER_MAX ? -1 : 0;
}

static const struct {
	const char *key;
	const char *param;	/* the parameter it writes */
	int (*parse)(const char *s, unsigned long long *v);
	const char *want;	/* what its value must be */
	const char *form;	/* for --help */
	const char *help;
} keys[NR_KEYS] = {
	[KEY_MIN] = { "min", "min_mem", parse_size,
		"a size: bytes, or a number with K, M, G or T",
		"min=SIZE", "never scale below SIZE (min_mem)" },
	[KEY_MAX] = { "max", "max_mem", parse_max,
		"a size (bytes, or a number with K, M, G or T) or all",
		"max=SIZE|all", "never scale above SIZE; all: the machine's memory (max_mem)" },
	[KEY_PRESSURE] = { "pressure", "mem_pressure_us", parse_pressure,
		"a time in us or ms, above 0, e.g. 1000us",
		"pressure=TIME", "acceptable memory PSI stall per interval (mem_pressure_us)" },
	[KEY_ORDER] = { "order", "scale_order", parse_order,
		"a page order, 0 to 63",
		"order=N", "chunks of 2^N pages (scale_order)" },
};

/* What the command line asks of one parameter, and what became of it. */
struct setting {
	const char *arg;	/* KEY=VALUE as given; NULL: not given */
	unsigned long long value;
	struct value now;	/* before acmactl wrote */
	bool written;
};

static int set_usage_error(const char *arg, const char *why)
{
	fprintf(stderr, "acmactl: set: %s%s%s (see acmactl --help)\n",
		arg ? arg : "", arg ? ": " : "", why);
	return EXIT_USAGE;
}

static int parse_args(int argc, char *const *argv, struct setting *set)
{
	char why[160];
	int i, k;

	if (!argc)
		return set_usage_error(NULL, "give KEY=VALUE: min=SIZE, max=SIZE, pressure=TIME, order=N");
	for (i = 0; i < argc; i++) {
		const char *eq = strchr(argv[i], '=');

		for (k = 0; k < NR_KEYS; k++)
			if (eq && strlen(keys[k].key) == (size_t)(eq - argv[i]) &&
			    !strncmp(argv[i], keys[k].key, eq - argv[i]))
				break;
		if (k == NR_KEYS)
			return set_usage_error(argv[i], "not KEY=VALUE with a KEY of min, max, pressure, order");
		if (set[k].arg)
			return set_usage_error(argv[i], "given twice");
		if (keys[k].parse(eq + 1, &set[k].value)) {
			snprintf(why, sizeof(why), "%s wants %s", keys[k].key, keys[k].want);
			return set_usage_error(argv[i], why);
		}
		set[k].arg = argv[i];
	}
	return 0;
}

/* The value a parameter will have: the new one, or the one it has. */
static struct value after(const struct setting *s)
{
	return s->arg ? (struct value){ true, s->value } : s->now;
}

/* The kernel's checks (damon_acma_check()) that the values alone decide. */
static int check(struct sysfs *fs, const struct setting *set)
{
	struct value min = after(&set[KEY_MIN]), max = after(&set[KEY_MAX]);
	struct value interval;

	/* a conflict this command does not touch is left to the kernel */
	if ((set[KEY_MIN].arg || set[KEY_MAX].arg) && min.ok && max.ok && max.num &&
	    min.num > max.num) {
		if (!set[KEY_MAX].arg)
			fprintf(stderr, "acmactl: set: %s: above max_mem (%llu)\n",
				set[KEY_MIN].arg, max.num);
		else if (!set[KEY_MIN].arg)
			fprintf(stderr, "acmactl: set: %s: below min_mem (%llu)\n",
				set[KEY_MAX].arg, min.num);
		else
			fprintf(stderr, "acmactl: set: %s: above %s\n", set[KEY_MIN].arg,
				set[KEY_MAX].arg);
		return -1;
	}
	if (!set[KEY_PRESSURE].arg ||
	    acma_read_num(fs, "quota_reset_interval_ms", &interval))
		return 0;
	if (set[KEY_PRESSURE].value >= interval.num * 1000) {
		fprintf(stderr, "acmactl: set: %s: not below the pressure interval (quota_reset_interval_ms %llu)\n",
			set[KEY_PRESSURE].arg, interval.num);
		return -1;
	}
	return 0;
}

static const char *why_not(int err)
{
	return err == -EINVAL ? "the kernel refused" : "cannot write";
}

/* Write the old values back after a refused commit. */
static void restore(const struct sysfs *fs, struct setting *set)
{
	char buf[32];
	int k, err;

	for (k = 0; k < NR_KEYS; k++) {
		if (!set[k].written)
			continue;
		snprintf(buf, sizeof(buf), "%llu", set[k].now.num);
		err = acma_write(fs, keys[k].param, buf);
		if (err)
			fprintf(stderr, "acmactl: %s: %s back to %s: %s\n", why_not(err),
				keys[k].param, buf, strerror(-err));
		else
			printf("%s: %llu -> %s (restored)\n", keys[k].param, set[k].value, buf);
	}
}

static void print_dry_run(const struct setting *set, bool enabled)
{
	char path[ACMA_PATH_MAX];
	int k;

	for (k = 0; k < NR_KEYS; k++)
		if (set[k].arg)
			printf("would write %s: %llu (now %llu)\n",
			       acma_path(path, keys[k].param), set[k].value, set[k].now.num);
	if (enabled)
		printf("would write %s: Y\n", acma_path(path, "commit_inputs"));
	else
		printf("DAMON_ACMA is off: the values would apply when it is enabled\n");
}

/* Write the new values; the number written, -1 when one was refused. */
static int write_all(const struct sysfs *fs, struct setting *set, int *refused)
{
	char buf[32];
	int k, err, written = 0;

	*refused = 0;
	for (k = 0; k < NR_KEYS; k++) {
		if (!set[k].arg)
			continue;
		snprintf(buf, sizeof(buf), "%llu", set[k].value);
		err = acma_write(fs, keys[k].param, buf);
		if (err) {
			fprintf(stderr, "acmactl: %s: %s = %s: %s\n", why_not(err),
				keys[k].param, buf, strerror(-err));
			(*refused)++;
			continue;
		}
		set[k].written = true;
		written++;
		printf("%s: %llu -> %s\n", keys[k].param, set[k].now.num, buf);
	}
	return written;
}

/**
 * set_run() - acmactl set KEY=VALUE...
 * @fs: the root
 * @argc: number of @argv
 * @argv: the KEY=VALUE arguments
 * @dry_run: only say what would be written
 *
 * Return: EXIT_DONE; EXIT_PARTIAL when some values were written and others
 * refused; EXIT_FAILED when nothing changed (a check failed, every write
 * or the commit was refused); EXIT_USAGE for a bad argument; EXIT_NO_ACMA
 * without DAMON_ACMA.
 */
int set_run(struct sysfs *fs, int argc, char *const *argv, bool dry_run)
{
	struct setting set[NR_KEYS] = { { 0 } };
	int k, err, written, refused;
	bool enabled;

	err = parse_args(argc, argv, set);
	if (err)
		return err;
	if (!acma_present(fs))
		return EXIT_NO_ACMA;
	/* min and max are read even when not set: check() compares them */
	for (k = 0; k < NR_KEYS; k++)
		if ((set[k].arg || k == KEY_MIN || k == KEY_MAX) &&
		    acma_read_num(fs, keys[k].param, &set[k].now) && set[k].arg)
			break;
	if (k < NR_KEYS || acma_read_flag(fs, "enabled", &enabled) || check(fs, set)) {
		fprintf(stderr, "acmactl: set: nothing written\n");
		return EXIT_FAILED;
	}
	if (dry_run) {
		print_dry_run(set, enabled);
		return EXIT_DONE;
	}
	written = write_all(fs, set, &refused);
	if (!written)
		return EXIT_FAILED;
	if (!enabled) {
		printf("DAMON_ACMA is off: the new values apply when it is enabled, which checks them\n");
		return refused ? EXIT_PARTIAL : EXIT_DONE;
	}
	err = acma_write(fs, "commit_inputs", "Y");
	if (err) {
		fprintf(stderr, "acmactl: %s: commit_inputs = Y: %s; DAMON_ACMA runs on as it was\n",
			why_not(err), strerror(-err));
		restore(fs, set);
		return EXIT_FAILED;
	}
	printf("commit_inputs: Y, accepted: DAMON_ACMA applies the new values at its next step\n");
	return refused ? EXIT_PARTIAL : EXIT_DONE;
}

/**
 * set_help() - explain set's keys
 * @f: where
 */
void set_help(FILE *f)
{
	int k;

	for (k = 0; k < NR_KEYS; k++)
		fprintf(f, "  %-14s  %s\n", keys[k].form, keys[k].help);
	fputs("  SIZE: bytes, or a number with K, M, G or T (powers of 1024). TIME: a\n"
	      "  number with us or ms, above 0. N: 0 to 63; the kernel takes from the\n"
	      "  pageblock order (9 with 4 KiB pages) up to a memory block.\n", f);
}
