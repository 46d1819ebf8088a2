/* SPDX-License-Identifier: GPL-2.0 */
/*
 * atomicfile.h - a file replaced whole or not at all: written under a
 * temporary name in its own directory, then renamed over it
 */
#ifndef TOOLS_LIB_ATOMICFILE_H
#define TOOLS_LIB_ATOMICFILE_H

#include <stdio.h>

struct atomic_file {
	char *path;	/* the file to replace */
	char *tmp;	/* DIR/.NAME.XXXXXX: no reader of *.NAME ever sees it */
	FILE *f;	/* write here */
};

int atomic_open(struct atomic_file *af, const char *path);
int atomic_commit(struct atomic_file *af);
void atomic_abort(struct atomic_file *af);

#endif
