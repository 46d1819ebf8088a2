// SPDX-License-Identifier: GPL-2.0
/*
 * cmdline.c - what the tools' command lines share: whole decimal numbers,
 * bare or with a unit, and the usage error
 *
 * Numbers are strict: no sign, no blanks, nothing after the number or its
 * unit, and a value that does not fit is refused rather than cut.
 */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmdline.h"
#include "exitcodes.h"

/**
 * parse_digits() - a whole decimal number at the start of a text
 * @s: the text
 * @end: set to what follows the number
 * @v: the number
 *
 * Return: 0, or -1 when @s does not start with a digit or the number does
 * not fit.
 */
int parse_digits(const char *s, const char **end, unsigned long long *v)
{
	char *e;

	if (!isdigit((unsigned char)*s))
		return -1;
	errno = 0;
	*v = strtoull(s, &e, 10);
	*end = e;
	return errno ? -1 : 0;
}

/**
 * parse_with_unit() - a whole decimal number and one of its units, e.g. 500ms
 * @s: the text
 * @units: the units it may have, ended by a NULL suffix; a "" suffix allows
 *	a bare number
 * @v: the number in base units (the number times its unit's scale)
 *
 * Return: 0, or -1 when @s is not a number with one of @units, or the
 * value does not fit.
 */
int parse_with_unit(const char *s, const struct unit *units,
		    unsigned long long *v)
{
	const char *end;

	if (parse_digits(s, &end, v))
		return -1;
	for (; units->suffix; units++) {
		if (strcmp(end, units->suffix))
			continue;
		if (*v > ~0ULL / units->scale)
			return -1;
		*v *= units->scale;
		return 0;
	}
	return -1;
}

/**
 * usage_error() - say a usage error, one line on stderr
 * @prog: the tool
 * @msg: what is wrong
 * @arg: the argument at fault, said first; NULL for none
 *
 * Return: EXIT_USAGE, for the caller to exit with.
 */
int usage_error(const char *prog, const char *msg, const char *arg)
{
	fprintf(stderr, "%s: %s%s%s (see %s --help)\n", prog, arg ? arg : "",
		arg ? ": " : "", msg, prog);
	return EXIT_USAGE;
}
