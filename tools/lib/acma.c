// SPDX-License-Identifier: GPL-2.0
/*
 * acma.c - DAMON_ACMA's module parameters, /sys/module/damon_acma/parameters
 *
 * Parameters written are staged: DAMON_ACMA checks and applies them when
 * it is enabled, or, while it runs, when Y is written to commit_inputs.
 */
#include <stdio.h>

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
