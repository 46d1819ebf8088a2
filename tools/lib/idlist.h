/* SPDX-License-Identifier: GPL-2.0 */
/*
 * idlist.h - lists of ids as sysfs writes them: "32-35", "32,34,36-37"
 */
#ifndef TOOLS_LIB_IDLIST_H
#define TOOLS_LIB_IDLIST_H

#include <stddef.h>

/* Ids, lowest first, each once. */
struct idlist {
	unsigned int *ids;
	size_t nr;
};

int idlist_parse(const char *text, struct idlist *list);
char *idlist_format(const unsigned int *ids, size_t nr);
void idlist_free(struct idlist *list);

#endif
