// SPDX-License-Identifier: GPL-2.0
/*
 * idlist.c - lists of ids as sysfs writes them (cpulist format)
 *
 * Comma-separated ids and inclusive ranges, e.g. "32,34,36-37", the
 * format of /sys/devices/system/node/nodeN/cpulist and of a DRAM power
 * domain's blocks.
 */
#define _GNU_SOURCE
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "idlist.h"

/* More ids than any machine has memory blocks: the list is garbage. */
#define IDLIST_MAX	(1U << 20)

static int parse_id(const char *s, char **end, unsigned long *id)
{
	if (!isdigit((unsigned char)*s))
		return -1;
	errno = 0;
	*id = strtoul(s, end, 10);
	return errno || *id >= IDLIST_MAX ? -1 : 0;
}

static int cmp_uint(const void *a, const void *b)
{
	unsigned int x = *(const unsigned int *)a, y = *(const unsigned int *)b;

	return x < y ? -1 : x > y;
}

/**
 * idlist_parse() - read a list of ids
 * @text: e.g. "32,34,36-37", with or without a final newline; "" is empty
 * @list: set to the ids, lowest first, each once; idlist_free() it
 *
 * Return: 0, or -1 if @text is not such a list or out of memory.
 */
int idlist_parse(const char *text, struct idlist *list)
{
	unsigned long first, last, id;
	size_t cap = 0, n = 0, i;
	const char *s = text;
	unsigned int *ids = NULL, *more;
	char *end;

	list->ids = NULL;
	list->nr = 0;
	while (*s && *s != '\n') {
		if (parse_id(s, &end, &first))
			goto bad;
		last = first;
		if (*end == '-' && parse_id(end + 1, &end, &last))
			goto bad;
		if (last < first || last - first >= IDLIST_MAX - n)
			goto bad;
		if (n + (last - first + 1) > cap) {
			cap = 2 * (n + (last - first + 1));
			more = realloc(ids, cap * sizeof(*ids));
			if (!more)
				goto bad;
			ids = more;
		}
		for (id = first; id <= last; id++)
			ids[n++] = id;
		s = end;
		if (*s == ',' && isdigit((unsigned char)s[1]))
			s++;
		else if (*s && strcmp(s, "\n"))
			goto bad;
	}
	if (n)
		qsort(ids, n, sizeof(*ids), cmp_uint);
	for (i = 0; i < n; i++)
		if (!list->nr || ids[list->nr - 1] != ids[i])
			ids[list->nr++] = ids[i];
	list->ids = ids;
	return 0;
bad:
	free(ids);
	list->nr = 0;
	return -1;
}

/**
 * idlist_format() - write ids as a list, ranges where they follow each other
 * @ids: lowest first, each once
 * @nr: how many
 *
 * Return: e.g. "0-7,9" ("" for none), to be freed by the caller; NULL when
 * out of memory.
 */
char *idlist_format(const unsigned int *ids, size_t nr)
{
	char *s = strdup(""), *more = NULL;
	size_t i = 0, j;
	int n;

	while (s && i < nr) {
		for (j = i; j + 1 < nr && ids[j + 1] == ids[j] + 1; j++)
			;
		if (j == i)
			n = asprintf(&more, "%s%s%u", s, i ? "," : "", ids[i]);
		else
			n = asprintf(&more, "%s%s%u-%u", s, i ? "," : "", ids[i], ids[j]);
		free(s);
		s = n < 0 ? NULL : more;
		i = j + 1;
	}
	return s;
}

/**
 * idlist_free() - free the ids of a list
 * @list: from idlist_parse()
 */
void idlist_free(struct idlist *list)
{
	free(list->ids);
	list->ids = NULL;
	list->nr = 0;
}
