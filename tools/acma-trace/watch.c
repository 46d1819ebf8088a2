// SPDX-License-Identifier: GPL-2.0
/*
 * watch.c - waiting for the next row
 *
 * SIGINT and SIGTERM are blocked and read from a signalfd, so that a row
 * is never cut. With --on-change, the DRAM power driver's domainN/state
 * files are polled too: the driver calls sysfs_notify on every change of
 * a rank's power state, which wakes poll(2) with POLLPRI, as for any sysfs
 * attribute that notifies (read the file first, and again after each
 * wake-up, to arm it). A captured tree (--sysroot) never wakes it.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/signalfd.h>
#include <time.h>
#include <unistd.h>

#include "watch.h"

#define DRAM_POWER	"/sys/devices/system/dram_power"
#define NS_PER_S	1000000000ULL

static unsigned long long now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * NS_PER_S + ts.tv_nsec;
}

/* Read a state file whole from its start: what arms its next notification. */
static void rearm(int fd)
{
	char buf[64];

	if (lseek(fd, 0, SEEK_SET) == 0)
		while (read(fd, buf, sizeof(buf)) > 0)
			;
}

/**
 * watch_init() - what the wait for the next row listens to
 * @w: set up here
 * @fs: the root; a state file that cannot be opened is said and not watched
 * @stop: the signals that stop the trace, blocked by the caller
 * @ranks: also every rank's power state (--on-change)
 *
 * Return: 0, or -1 with errno set (no signalfd, out of memory).
 */
int watch_init(struct watch *w, struct sysfs *fs, const sigset_t *stop,
	       bool ranks)
{
	unsigned int *ids = NULL;
	size_t nr = 0, i;
	char path[96];
	int fd;

	w->nr = 0;
	/* a machine without DRAM power management has no ranks to follow */
	if (ranks && sysfs_exists(fs, DRAM_POWER) &&
	    sysfs_list_ids(fs, DRAM_POWER, "domain", &ids, &nr))
		nr = 0;
	w->fds = calloc(nr + 1, sizeof(*w->fds));
	if (!w->fds) {
		free(ids);
		return -1;
	}
	fd = signalfd(-1, stop, SFD_CLOEXEC);
	if (fd < 0) {
		free(ids);
		free(w->fds);
		return -1;
	}
	w->fds[w->nr++] = (struct pollfd){ .fd = fd, .events = POLLIN };
	for (i = 0; i < nr; i++) {
		snprintf(path, sizeof(path), DRAM_POWER "/domain%u/state", ids[i]);
		fd = sysfs_open(fs, path, O_RDONLY);
		if (fd < 0) {
			sysfs_failed(fs, path, strerror(errno), NULL);
			continue;
		}
		rearm(fd);
		w->fds[w->nr++] = (struct pollfd){ .fd = fd, .events = POLLPRI };
	}
	free(ids);
	return 0;
}

/**
 * watch_until() - wait for a deadline, a stop signal or a rank's change
 * @w: what to listen to
 * @deadline_ns: CLOCK_MONOTONIC
 *
 * Return: what came first; every state file that changed is armed again.
 */
enum watch_event watch_until(struct watch *w, unsigned long long deadline_ns)
{
	struct signalfd_siginfo si;
	unsigned long long now;
	struct timespec left;
	bool changed = false;
	size_t i;
	int n;

	while ((now = now_ns()) < deadline_ns) {
		left.tv_sec = (deadline_ns - now) / NS_PER_S;
		left.tv_nsec = (deadline_ns - now) % NS_PER_S;
		n = ppoll(w->fds, w->nr, &left, NULL);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return WATCH_FAILED;
		if (w->fds[0].revents & POLLIN &&
		    read(w->fds[0].fd, &si, sizeof(si)) == sizeof(si))
			return WATCH_STOP;
		for (i = 1; i < w->nr; i++) {
			if (!(w->fds[i].revents & (POLLPRI | POLLERR)))
				continue;
			rearm(w->fds[i].fd);
			changed = true;
		}
		if (changed)
			return WATCH_CHANGE;
	}
	return WATCH_TIME;
}

void watch_free(struct watch *w)
{
	size_t i;

	for (i = 0; i < w->nr; i++)
		close(w->fds[i].fd);
	free(w->fds);
	w->fds = NULL;
	w->nr = 0;
}
