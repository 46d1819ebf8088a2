/* SPDX-License-Identifier: GPL-2.0 */
/*
 * exitcodes.h - the exit codes of the tools that read DAMON_ACMA on the
 * machine itself (acmactl, acma-trace), documented in their --help and
 * README.md
 */
#ifndef TOOLS_LIB_EXITCODES_H
#define TOOLS_LIB_EXITCODES_H

enum {
	EXIT_DONE = 0,
	EXIT_PARTIAL = 1,	/* acmactl status: something unread; set: some values refused */
	EXIT_USAGE = 2,		/* as acma-ranks and most tools */
	EXIT_FAILED = 3,	/* acmactl set: refused, nothing changed; output failed; out of memory */
	EXIT_NO_ACMA = 4,	/* no /sys/module/damon_acma */
};

#endif
