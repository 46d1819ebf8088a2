// SPDX-License-Identifier: GPL-2.0
/*
 * sysfs.c - reading and writing sysfs files under a root
 *
 * A sysfs file holds one value and a newline. A file that is missing or
 * holds something else is said once and counted, and the caller shows its
 * value as unknown: a broken file never stops the rest. The few /proc
 * files a tool reads are under the same root.
 */
#define _GNU_SOURCE
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "sysfs.h"

/* sysfs gives a page at most; more is not a sysfs file. */
#define SYSFS_MAX_FILE	65536

/* Text quoted in a message, at most this long. */
#define QUOTE_MAX	40

static char *full_path(const struct sysfs *fs, const char *path)
{
	char *full = NULL;

	return asprintf(&full, "%s%s", fs->root, path) < 0 ? NULL : full;
}

/**
 * sysfs_set_root() - read a captured tree instead of the machine (--sysroot)
 * @fs: the root to set
 * @dir: the tree, holding sys/... (and proc/... for the files of /proc)
 *
 * Return: 0, or -1 when @dir is not a directory.
 */
int sysfs_set_root(struct sysfs *fs, const char *dir)
{
	struct stat st;

	if (stat(dir, &st) || !S_ISDIR(st.st_mode))
		return -1;
	fs->root = dir;
	return 0;
}

/**
 * sysfs_failed() - say that a file could not be used, and count it
 * @fs: the root, and where to say it
 * @path: absolute, as on the machine (/sys/...)
 * @why: what is wrong
 * @text: what the file holds, quoted after @why; NULL for nothing
 *
 * Return: -1, for the caller to return.
 */
int sysfs_failed(struct sysfs *fs, const char *path, const char *why,
		 const char *text)
{
	FILE *f = fs->msgs ? fs->msgs : stderr;

	if (text)
		fprintf(f, "%s: %s: %s: '%.*s'\n", fs->prog, path, why, QUOTE_MAX, text);
	else
		fprintf(f, "%s: %s: %s\n", fs->prog, path, why);
	fs->failures++;
	return -1;
}

/**
 * sysfs_exists() - whether a file or directory is there
 * @fs: the root
 * @path: absolute, as on the machine (/sys/...)
 *
 * Return: true if it is.
 */
bool sysfs_exists(const struct sysfs *fs, const char *path)
{
	char *full = full_path(fs, path);
	struct stat st;
	bool there = full && !stat(full, &st);

	free(full);
	return there;
}

/**
 * sysfs_read_text() - read a whole file
 * @fs: the root; a failure is said and counted
 * @path: absolute, as on the machine (/sys/...)
 * @text: set to the content, NUL-terminated, to be freed by the caller
 *
 * Return: 0, or -1 when the file cannot be read.
 */
int sysfs_read_text(struct sysfs *fs, const char *path, char **text)
{
	char *full = full_path(fs, path), *buf = malloc(SYSFS_MAX_FILE + 1);
	size_t len = 0;
	ssize_t n = 1;
	int fd = -1, err = ENOMEM;

	if (full && buf) {
		fd = open(full, O_RDONLY | O_CLOEXEC);
		err = errno;
	}
	while (fd >= 0 && n > 0 && len < SYSFS_MAX_FILE) {
		n = read(fd, buf + len, SYSFS_MAX_FILE - len);
		if (n > 0)
			len += n;
	}
	if (n < 0)
		err = errno;
	if (fd >= 0)
		close(fd);
	free(full);
	if (fd < 0 || n < 0) {
		free(buf);
		return sysfs_failed(fs, path, strerror(err), NULL);
	}
	if (len == SYSFS_MAX_FILE) {
		free(buf);
		return sysfs_failed(fs, path, "larger than a sysfs file", NULL);
	}
	buf[len] = '\0';
	*text = buf;
	return 0;
}

/**
 * sysfs_read_line() - read a file of one line
 * @fs: the root; a failure is said and counted
 * @path: absolute, as on the machine (/sys/...)
 * @line: set to the line without its newline, to be freed by the caller
 *
 * Return: 0, or -1 when the file cannot be read or holds more than a line.
 */
int sysfs_read_line(struct sysfs *fs, const char *path, char **line)
{
	char *text;
	size_t len;

	if (sysfs_read_text(fs, path, &text))
		return -1;
	len = strlen(text);
	if (len && text[len - 1] == '\n')
		text[--len] = '\0';
	if (strchr(text, '\n')) {
		sysfs_failed(fs, path, "more than one line", text);
		free(text);
		return -1;
	}
	*line = text;
	return 0;
}

/* A whole unsigned number in @base, nothing before or after it. */
static int parse_num(const char *s, int base, unsigned long long *num)
{
	char *end;

	if (!isxdigit((unsigned char)*s) || (base == 10 && !isdigit((unsigned char)*s)))
		return -1;
	errno = 0;
	*num = strtoull(s, &end, base);
	return errno || *end ? -1 : 0;
}

static int read_num(struct sysfs *fs, const char *path, int base,
		    const char *what, struct value *v)
{
	char *line;
	int ret = -1;

	v->ok = false;
	if (sysfs_read_line(fs, path, &line))
		return -1;
	if (parse_num(line, base, &v->num))
		sysfs_failed(fs, path, what, line);
	else
		ret = 0;
	v->ok = !ret;
	free(line);
	return ret;
}

/**
 * sysfs_read_num() - read a file of one unsigned decimal number
 * @fs: the root; a failure is said and counted
 * @path: absolute, as on the machine (/sys/...)
 * @v: the number, with ok false when it could not be read
 *
 * Return: 0, or -1 on failure.
 */
int sysfs_read_num(struct sysfs *fs, const char *path, struct value *v)
{
	return read_num(fs, path, 10, "not a number", v);
}

/**
 * sysfs_read_hex() - read a file of one hexadecimal number (0x optional)
 * @fs: the root; a failure is said and counted
 * @path: absolute, as on the machine (/sys/...)
 * @v: the number, with ok false when it could not be read
 *
 * Return: 0, or -1 on failure.
 */
int sysfs_read_hex(struct sysfs *fs, const char *path, struct value *v)
{
	return read_num(fs, path, 16, "not a hexadecimal number", v);
}

/**
 * sysfs_read_long() - read a file of one signed decimal number
 * @fs: the root; a failure is said and counted
 * @path: absolute, as on the machine (/sys/...)
 * @num: the number
 *
 * Return: 0, or -1 on failure.
 */
int sysfs_read_long(struct sysfs *fs, const char *path, long *num)
{
	char *line, *end;
	int ret = -1;

	if (sysfs_read_line(fs, path, &line))
		return -1;
	errno = 0;
	*num = strtol(line, &end, 10);
	if (!isdigit((unsigned char)line[*line == '-']) || errno || *end)
		sysfs_failed(fs, path, "not a number", line);
	else
		ret = 0;
	free(line);
	return ret;
}

/**
 * sysfs_read_flag() - read a boolean module parameter, Y or N
 * @fs: the root; a failure is said and counted
 * @path: absolute, as on the machine (/sys/...)
 * @flag: true for Y
 *
 * Return: 0, or -1 on failure.
 */
int sysfs_read_flag(struct sysfs *fs, const char *path, bool *flag)
{
	char *line;
	int ret = -1;

	if (sysfs_read_line(fs, path, &line))
		return -1;
	if (strcmp(line, "Y") && strcmp(line, "N"))
		sysfs_failed(fs, path, "not Y or N", line);
	else
		ret = 0;
	*flag = !strcmp(line, "Y");
	free(line);
	return ret;
}

static int cmp_uint(const void *a, const void *b)
{
	unsigned int x = *(const unsigned int *)a, y = *(const unsigned int *)b;

	return x < y ? -1 : x > y;
}

/**
 * sysfs_list_ids() - the numbers of a directory's numbered entries
 * @fs: the root; a failure is said and counted
 * @dir: absolute, as on the machine (/sys/...)
 * @prefix: what comes before the number, e.g. "memory" for memory32
 * @ids: set to the numbers, lowest first, to be freed by the caller
 * @nr: set to how many
 *
 * Return: 0, or -1 when the directory cannot be read or out of memory.
 */
int sysfs_list_ids(struct sysfs *fs, const char *dir, const char *prefix,
		   unsigned int **ids, size_t *nr)
{
	char *full = full_path(fs, dir);
	DIR *d = full ? opendir(full) : NULL;
	size_t len = strlen(prefix), cap = 0;
	unsigned long long id;
	struct dirent *e;
	int err = full ? errno : ENOMEM;

	free(full);
	*ids = NULL;
	*nr = 0;
	if (!d)
		return sysfs_failed(fs, dir, strerror(err), NULL);
	while ((e = readdir(d))) {
		unsigned int *more;

		if (strncmp(e->d_name, prefix, len) ||
		    parse_num(e->d_name + len, 10, &id) || id > UINT_MAX)
			continue;
		if (*nr == cap) {
			cap = cap ? 2 * cap : 64;
			more = realloc(*ids, cap * sizeof(**ids));
			if (!more) {
				closedir(d);
				free(*ids);
				*ids = NULL;
				*nr = 0;
				return sysfs_failed(fs, dir, strerror(ENOMEM), NULL);
			}
			*ids = more;
		}
		(*ids)[(*nr)++] = id;
	}
	closedir(d);
	if (*nr)
		qsort(*ids, *nr, sizeof(**ids), cmp_uint);
	return 0;
}

/**
 * sysfs_open() - open a file under the root
 * @fs: the root
 * @path: absolute, as on the machine (/sys/...)
 * @flags: open(2)'s; O_CLOEXEC is added
 *
 * Return: the descriptor, or -1 with errno set.
 */
int sysfs_open(const struct sysfs *fs, const char *path, int flags)
{
	char *full = full_path(fs, path);
	int fd;

	if (!full) {
		errno = ENOMEM;
		return -1;
	}
	fd = open(full, flags | O_CLOEXEC);
	free(full);
	return fd;
}

/**
 * sysfs_write() - write a value and a newline to a file, as echo does
 * @fs: the root
 * @path: absolute, as on the machine (/sys/...)
 * @value: the value
 *
 * The value goes in one write(), so that the kernel sees it whole and its
 * answer (an errno) is the write's.
 *
 * Return: 0, or a negative errno: the kernel's refusal or why the file
 * could not be opened.
 */
int sysfs_write(const struct sysfs *fs, const char *path, const char *value)
{
	char *full = full_path(fs, path), *line = NULL;
	int fd, err = 0;
	ssize_t n;

	if (!full || asprintf(&line, "%s\n", value) < 0) {
		free(full);
		return -ENOMEM;
	}
	fd = open(full, O_WRONLY | O_TRUNC | O_CLOEXEC);
	if (fd < 0) {
		err = -errno;
	} else {
		n = write(fd, line, strlen(line));
		if (n < 0)
			err = -errno;
		else if ((size_t)n < strlen(line))
			err = -EIO;
		if (close(fd) && !err)
			err = -errno;
	}
	free(full);
	free(line);
	return err;
}
