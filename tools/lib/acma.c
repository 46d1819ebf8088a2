// SPDX-License-Identifier: GPL-2.0
/*
 * acma.c - DAMON_ACMA's module parameters, /sys/module/damon_acma/parameters
 *
 * Parameters written are staged: DAMON_ACMA checks and applies them when
 * it is enabled, or, while it runs, when Y is written to commit_inputs.
 */
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "acma.h"

/**
 * acma_present() - whether the kernel has DAMON_ACMA; said on stderr if not
 * @fs: the root
 *
 * Return: true if /sys/module/damon_acma is there.
 */
bool acma_present(const struct sysfs *fs)
{
	if (sysfs_exists(fs, ACMA_MODULE))
		return true;
	fprintf(stderr, "%s: no DAMON_ACMA in this kernel (no %s)\n", fs->prog, ACMA_MODULE);
	return false;
}

/**
 * acma_path() - the file of a parameter
 * @buf: ACMA_PATH_MAX bytes
 * @param: its name, e.g. "min_mem"
 *
 * Return: @buf, holding /sys/module/damon_acma/parameters/@param.
 */
const char *acma_path(char *buf, const char *param)
{
	snprintf(buf, ACMA_PATH_MAX, "%s%s", ACMA_PARAMS, param);
	return buf;
}

/**
 * acma_read_num() - read an unsigned parameter
 * @fs: the root; a failure is said and counted
 * @param: its name
 * @v: the value, with ok false when it could not be read
 *
 * Return: 0, or -1 on failure.
 */
int acma_read_num(struct sysfs *fs, const char *param, struct value *v)
{
	char path[ACMA_PATH_MAX];

	return sysfs_read_num(fs, acma_path(path, param), v);
}

/**
 * acma_read_flag() - read a boolean parameter (Y or N)
 * @fs: the root; a failure is said and counted
 * @param: its name
 * @flag: true for Y
 *
 * Return: 0, or -1 on failure.
 */
int acma_read_flag(struct sysfs *fs, const char *param, bool *flag)
{
	char path[ACMA_PATH_MAX];

	return sysfs_read_flag(fs, acma_path(path, param), flag);
}

/**
 * acma_read_long() - read a signed parameter
 * @fs: the root; a failure is said and counted
 * @param: its name
 * @num: the value
 *
 * Return: 0, or -1 on failure.
 */
int acma_read_long(struct sysfs *fs, const char *param, long *num)
{
	char path[ACMA_PATH_MAX];

	return sysfs_read_long(fs, acma_path(path, param), num);
}

/**
 * acma_write() - write a parameter
 * @fs: the root
 * @param: its name
 * @value: what to write (a newline follows)
 *
 * Return: 0, or the kernel's negative errno.
 */
int acma_write(const struct sysfs *fs, const char *param, const char *value)
{
	char path[ACMA_PATH_MAX];

	return sysfs_write(fs, acma_path(path, param), value);
}

const char *const acma_defer_reasons[NR_ACMA_DEFER_REASONS] = {
	[ACMA_DEFER_IN_USE] = "in-use",
	[ACMA_DEFER_UNMOVABLE] = "unmovable",
};

/* A whole unsigned number, up to @end; NULL if there is none. */
static char *parse_uint(char *s, unsigned int *num)
{
	unsigned long n;
	char *end;

	if (!isdigit((unsigned char)*s))
		return NULL;
	errno = 0;
	n = strtoul(s, &end, 10);
	if (errno || n > UINT_MAX)
		return NULL;
	*num = n;
	return end;
}

/* "memoryN REASON SECONDS", single blanks, nothing else. */
static int parse_deferral(char *line, struct acma_deferral *d)
{
	static const char prefix[] = "memory";
	char *p = line, *blank;
	size_t i;

	if (strncmp(p, prefix, strlen(prefix)))
		return -1;
	p = parse_uint(p + strlen(prefix), &d->block);
	if (!p || *p != ' ')
		return -1;
	blank = strchr(++p, ' ');
	if (!blank)
		return -1;
	for (i = 0; i < NR_ACMA_DEFER_REASONS; i++)
		if (strlen(acma_defer_reasons[i]) == (size_t)(blank - p) &&
		    !strncmp(p, acma_defer_reasons[i], blank - p))
			break;
	if (i == NR_ACMA_DEFER_REASONS)
		return -1;
	d->reason = i;
	p = parse_uint(blank + 1, &d->retry_s);
	return p && !*p ? 0 : -1;
}

/**
 * acma_read_deferred() - the blocks scale-down leaves alone for now
 * @fs: the root; a failure is said and counted
 * @d: set to the blocks, in the file's order; acma_deferred_free() it
 *
 * deferred_blocks has a line per block, "memoryN REASON SECONDS", and is
 * empty when nothing is deferred or DAMON_ACMA is off. A kernel without the
 * file (older than it) defers nothing that it could show: no blocks, no
 * failure. A line that is not such a line (or has no newline: cut short)
 * is said, with its number, and leaves the whole list unknown (@d->ok
 * false): a block cannot be left out of it.
 *
 * Return: 0, or -1 on failure.
 */
int acma_read_deferred(struct sysfs *fs, struct acma_deferred *d)
{
	char path[ACMA_PATH_MAX], why[64], *text, *line, *nl;
	struct acma_deferral *more;
	unsigned int nr_line = 0;
	size_t cap = 0;

	memset(d, 0, sizeof(*d));
	acma_path(path, "deferred_blocks");
	if (!sysfs_exists(fs, path)) {
		d->ok = true;
		return 0;
	}
	if (sysfs_read_text(fs, path, &text))
		return -1;
	for (line = text; *line; line = nl + 1) {
		nr_line++;
		nl = strchr(line, '\n');
		snprintf(why, sizeof(why), "line %u: ", nr_line);
		if (!nl) {
			strcat(why, "cut short (no newline)");
			goto bad;
		}
		*nl = '\0';
		if (d->nr == cap) {
			cap = cap ? 2 * cap : 16;
			more = realloc(d->blocks, cap * sizeof(*d->blocks));
			if (!more) {
				strcat(why, strerror(ENOMEM));
				line = NULL;
				goto bad;
			}
			d->blocks = more;
		}
		if (parse_deferral(line, &d->blocks[d->nr])) {
			strcat(why, "not memoryN in-use|unmovable SECONDS");
			goto bad;
		}
		d->blocks[d->nr++].line = nr_line;
	}
	free(text);
	d->ok = true;
	return 0;
bad:
	sysfs_failed(fs, path, why, line);
	free(text);
	acma_deferred_free(d);
	return -1;
}

/**
 * acma_deferred_free() - free what acma_read_deferred() read
 * @d: the list; left empty and unknown
 */
void acma_deferred_free(struct acma_deferred *d)
{
	free(d->blocks);
	memset(d, 0, sizeof(*d));
}
