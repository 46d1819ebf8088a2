/* SPDX-License-Identifier: GPL-2.0 */
/*
 * sysfs.h - reading and writing sysfs files under a root: / on the
 * machine itself, a captured tree in tests (--sysroot)
 */
#ifndef TOOLS_LIB_SYSFS_H
#define TOOLS_LIB_SYSFS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

/*
 * Where the files are and how reading went. Every failed read is said (on
 * stderr, unless the tool collects the messages), with the path as the
 * machine knows it (without the root), and counted: a partial result is
 * still shown, with what is missing unknown.
 */
struct sysfs {
	const char *root;	/* "" for the machine itself */
	const char *prog;	/* the tool, the first word of its messages */
	FILE *msgs;		/* where failed reads are said; NULL: stderr */
	unsigned int failures;	/* reads that failed so far */
};

/* A number read from a file, or not. */
struct value {
	bool ok;
	unsigned long long num;
};

int sysfs_set_root(struct sysfs *fs, const char *dir);
int sysfs_failed(struct sysfs *fs, const char *path, const char *why,
		 const char *text);
bool sysfs_exists(const struct sysfs *fs, const char *path);
int sysfs_read_text(struct sysfs *fs, const char *path, char **text);
int sysfs_read_line(struct sysfs *fs, const char *path, char **line);
int sysfs_read_num(struct sysfs *fs, const char *path, struct value *v);
int sysfs_read_hex(struct sysfs *fs, const char *path, struct value *v);
int sysfs_read_long(struct sysfs *fs, const char *path, long *num);
int sysfs_read_flag(struct sysfs *fs, const char *path, bool *flag);
int sysfs_open(const struct sysfs *fs, const char *path, int flags);
int sysfs_list_ids(struct sysfs *fs, const char *dir, const char *prefix,
		   unsigned int **ids, size_t *nr);
int sysfs_write(const struct sysfs *fs, const char *path, const char *value);

#endif
