/* SPDX-License-Identifier: GPL-2.0 */
/*
 * watch.h - waiting for the next row: its time on the grid, SIGINT or
 * SIGTERM, or (--on-change) a change of a rank's power state
 */
#ifndef ACMA_TRACE_WATCH_H
#define ACMA_TRACE_WATCH_H

#include <poll.h>
#include <signal.h>
#include <stdbool.h>
#include <stddef.h>

#include "sysfs.h"

struct watch {
	struct pollfd *fds;	/* [0] the stop signals, then the state files */
	size_t nr;
};

enum watch_event {
	WATCH_TIME,	/* the deadline came */
	WATCH_STOP,	/* SIGINT or SIGTERM */
	WATCH_CHANGE,	/* a rank's power state changed */
	WATCH_FAILED,	/* the wait itself failed: errno */
};

int watch_init(struct watch *w, struct sysfs *fs, const sigset_t *stop,
	       bool ranks);
enum watch_event watch_until(struct watch *w, unsigned long long deadline_ns);
void watch_free(struct watch *w);

#endif
