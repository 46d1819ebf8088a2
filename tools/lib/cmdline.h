/* SPDX-License-Identifier: GPL-2.0 */
/*
 * cmdline.h - what the tools' command lines share: whole decimal numbers,
 * bare or with a unit, and the usage error
 */
#ifndef TOOLS_LIB_CMDLINE_H
#define TOOLS_LIB_CMDLINE_H

/* A unit a number may carry, and the number of base units it stands for. */
struct unit {
	const char *suffix;	/* NULL ends a list of units */
	unsigned long long scale;
};

int parse_digits(const char *s, const char **end, unsigned long long *v);
int parse_with_unit(const char *s, const struct unit *units,
		    unsigned long long *v);
int usage_error(const char *prog, const char *msg, const char *arg);

#endif
