/* SPDX-License-Identifier: GPL-2.0 */
/*
 * acmactl.h - what acmactl's commands share: their exit codes
 */
#ifndef ACMACTL_H
#define ACMACTL_H

/* Exit codes, documented in --help and README.md. */
enum {
	EXIT_DONE = 0,
	EXIT_PARTIAL = 1,	/* status: something unread; set: some values refused */
	EXIT_FAILED = 2,	/* set: refused, nothing changed; out of memory */
	EXIT_USAGE = 3,
	EXIT_NO_ACMA = 4,	/* no /sys/module/damon_acma */
};

#endif
