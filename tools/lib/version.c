// SPDX-License-Identifier: GPL-2.0
/*
 * version.c - the tools' -V/--version, as util-linux's tools say theirs
 */
#include <stdio.h>

#include "exitcodes.h"
#include "version.h"

/* make and make deb build the tools with the tree's version (scripts/version.sh). */
#ifndef ACMA_VERSION
#define ACMA_VERSION "0~unknown"
#endif

/**
 * print_version() - "PROG (acma) VERSION" on stdout
 * @prog: the tool
 *
 * Return: EXIT_DONE (0), for the caller to exit with.
 */
int print_version(const char *prog)
{
	printf("%s (acma) %s\n", prog, ACMA_VERSION);
	return EXIT_DONE;
}
