// SPDX-License-Identifier: GPL-2.0
/*
 * domain.c - rank power-state transitions and the DRAM power they cost
 *
 * A transition into a state that loses contents really drops them: every
 * backing file of the rank is punched over its whole range, so the guest
 * reads zeros afterwards; if that cannot be done (a file missing, a
 * symlink, not a regular file of the range's size, outside a private
 * folder, or a punch failing) the transition fails and the rank keeps its
 * state. Each transition is persisted, logged in the SEL
 * and reflected in the rank's memory sensor.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "acma-bmc.h"

/**
 * acma_log() - log a message through ipmi_sim and on stderr
 * @bmc: the plugin
 * @type: ipmi_sim log type (INFO, OS_ERROR, SETUP_ERROR, ...)
 * @fmt: printf format
 *
 * ipmi_sim sends its log to syslog once it runs; the copy on stderr lands
 * in the runner's bmc.log.
 */
void acma_log(struct acma_bmc *bmc, int type, const char *fmt, ...)
{
	char msg[1024];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	bmc->sys->log(bmc->sys, type, NULL, "%s", msg);
	fprintf(stderr, "%s\n", msg);
	fflush(stderr);
}

/**
 * acma_audit() - append a line to the durable transition log
 * @bmc: the plugin
 * @fmt: printf format of the line, without time and newline
 *
 * The line, prefixed with the UTC time, goes to @bmc->audit_path (opened
 * for each line with O_APPEND and O_NOFOLLOW, mode 0600, synced to disk
 * before this returns) and through acma_log() to ipmi_sim's log and
 * stderr. A failure to write it is logged there.
 */
void acma_audit(struct acma_bmc *bmc, const char *fmt, ...)
{
	char msg[768], line[896], when[32];
	time_t now = time(NULL);
	struct tm tm;
	va_list ap;
	int fd, len;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	acma_log(bmc, INFO, "acma: %s", msg);
	if (!bmc->audit_path)
		return;
	gmtime_r(&now, &tm);
	strftime(when, sizeof(when), "%Y-%m-%dT%H:%M:%SZ", &tm);
	len = snprintf(line, sizeof(line), "%s %s\n", when, msg);
	if (len >= (int)sizeof(line))
		len = sizeof(line) - 1;
	fd = open(bmc->audit_path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC | O_NOFOLLOW,
		  0600);
	if (fd < 0 || write(fd, line, len) != len || fdatasync(fd))
		acma_log(bmc, OS_ERROR, "acma: cannot log to %s: %s", bmc->audit_path,
			 strerror(errno));
	if (fd >= 0)
		close(fd);
}

/**
 * acma_power_now() - DRAM power drawn now
 * @bmc: the plugin
 *
 * Return: the sum over all ranks of the power of their current state, mW.
 */
uint32_t acma_power_now(const struct acma_bmc *bmc)
{
	uint64_t sum = 0;
	int i;

	for (i = 0; i < bmc->nr_ranks; i++)
		sum += bmc->ranks[i].power_mw[bmc->ranks[i].state];
	return sum > UINT32_MAX ? UINT32_MAX : sum;
}

static uint64_t ns_of(const struct timespec *t)
{
	return t->tv_sec * 1000000000ULL + t->tv_nsec;
}

/**
 * acma_stats_update() - account the energy drawn since the last update
 * @bmc: the plugin
 *
 * Call before the power changes and before reading the statistics. The
 * first call starts the statistics.
 */
void acma_stats_update(struct acma_bmc *bmc)
{
	struct acma_power_stats *st = &bmc->stats;
	uint32_t now_mw = acma_power_now(bmc);
	struct timespec now;

	clock_gettime(CLOCK_MONOTONIC, &now);
	if (!st->start.tv_sec && !st->start.tv_nsec) {
		st->start = now;
		st->last = now;
		st->min_mw = now_mw;
		st->max_mw = now_mw;
	} else {
		/*
		 * Whole milliseconds, the rest carried over to the next update:
		 * @last moves by what was counted, not to now. Dropping the rest
		 * at every update lost energy, and requests a fraction of a
		 * millisecond apart pulled the average below the minimum.
		 */
		uint64_t ms = (ns_of(&now) - ns_of(&st->last)) / 1000000ULL;
		uint64_t last = ns_of(&st->last) + ms * 1000000ULL;

		st->energy += (uint64_t)now_mw * ms;
		st->last.tv_sec = last / 1000000000ULL;
		st->last.tv_nsec = last % 1000000000ULL;
	}
	if (now_mw < st->min_mw)
		st->min_mw = now_mw;
	if (now_mw > st->max_mw)
		st->max_mw = now_mw;
}

/**
 * acma_private_dir() - is @path's folder ours alone?
 * @bmc: the plugin, for the log
 * @path: a file's path
 * @what: what the file is, for the log
 *
 * Return: 0 if the folder that holds @path is a real folder (not a
 * symlink) owned by the BMC's user with no access for others (0700), else
 * an errno value (logged).
 */
int acma_private_dir(struct acma_bmc *bmc, const char *path, const char *what)
{
	char *copy = strdup(path);
	struct stat st;
	int err = 0;

	if (!copy)
		return ENOMEM;
	if (lstat(dirname(copy), &st)) {
		err = errno;
		acma_log(bmc, OS_ERROR, "acma: %s %s: folder: %s", what, path,
			 strerror(err));
	} else if (!S_ISDIR(st.st_mode) || st.st_uid != geteuid() ||
		   (st.st_mode & 077)) {
		err = EPERM;
		acma_log(bmc, OS_ERROR,
			 "acma: %s %s: its folder must be our own with mode 0700 (it is %s, mode %o, uid %u)",
			 what, path, S_ISDIR(st.st_mode) ? "a folder" : "not a folder",
			 (unsigned int)(st.st_mode & 07777), (unsigned int)st.st_uid);
	}
	free(copy);
	return err;
}

/*
 * Open backing file @rg of @rank for the punch: in a private folder, not
 * through a symlink, a regular file of the range's size. Return the
 * descriptor, or -1 with the reason logged and in errno.
 */
static int open_backing(struct acma_bmc *bmc, int rank,
			const struct acma_range *rg)
{
	struct stat st;
	int fd, err;

	err = acma_private_dir(bmc, rg->path, "backing file");
	if (err) {
		errno = err;
		return -1;
	}
	fd = open(rg->path, O_RDWR | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0) {
		err = errno;
		acma_log(bmc, OS_ERROR, "acma: rank %d: %s: %s%s", rank, rg->path,
			 strerror(err), err == ELOOP ? " (a symlink)" : "");
		errno = err;
		return -1;
	}
	if (fstat(fd, &st)) {
		err = errno;
	} else if (!S_ISREG(st.st_mode)) {
		err = EINVAL;
		acma_log(bmc, OS_ERROR, "acma: rank %d: %s is not a regular file",
			 rank, rg->path);
	} else if ((uint64_t)st.st_size != rg->size) {
		err = EINVAL;
		acma_log(bmc, OS_ERROR,
			 "acma: rank %d: %s has %lld bytes, the rank's range %llu",
			 rank, rg->path, (long long)st.st_size,
			 (unsigned long long)rg->size);
	}
	if (err) {
		close(fd);
		errno = err;
		return -1;
	}
	return fd;
}

/*
 * Whatever reads or writes a rank's memory through QEMU while the rank is off
 * gives its shared backing file pages again (tmpfs allocates one on any fault,
 * a read too): the offset of the first such data in the file @fd, or -1 when there is none.
 */
static off_t accessed_at(int fd)
{
	off_t at = lseek(fd, 0, SEEK_DATA);

	return at < 0 ? -1 : at;
}

/**
 * acma_drop_contents() - drop the contents of every backing file of a rank
 * @bmc: the plugin
 * @rank: rank id
 * @why: %ACMA_DROP_POWER_OFF at the power-off (each file dropped is logged);
 *	%ACMA_DROP_AGAIN while the rank is off, when any data found in a file is
 *	memory something accessed while the rank was off: that is logged, in the
 *	BMC log and the transition log, once per time the rank is off, with the
 *	guest physical address of the first page found (a real rank would have
 *	raised a machine check, or read back garbage)
 *
 * Opens and checks them all first, then punches each over its whole range.
 *
 * Return: 0, or an errno value (logged) when a file is not as it must be or
 * a punch failed: the contents cannot be known to be gone, so the rank must
 * not be reported off.
 */
int acma_drop_contents(struct acma_bmc *bmc, int rank, enum acma_drop why)
{
	struct acma_rank *rk = &bmc->ranks[rank];
	int fds[ACMA_MAX_RANGES];
	int i, n, err = 0;
	off_t at;

	if (why == ACMA_DROP_POWER_OFF)
		rk->accessed_off = false;
	for (n = 0; n < rk->nr_ranges; n++) {
		fds[n] = open_backing(bmc, rank, &rk->ranges[n]);
		if (fds[n] < 0) {
			err = errno;
			break;
		}
	}
	for (i = 0; !err && i < n; i++) {
		const struct acma_range *rg = &rk->ranges[i];

		if (why == ACMA_DROP_AGAIN && !rk->accessed_off &&
		    (at = accessed_at(fds[i])) >= 0) {
			rk->accessed_off = true;
			acma_log(bmc, OS_ERROR,
				 "acma: rank %d: memory accessed while off, at 0x%llx",
				 rank, (unsigned long long)(rg->base + at));
			acma_audit(bmc, "rank %d (%s): memory accessed while %s, at 0x%llx",
				   rank, bmc->dimms[rk->dimm],
				   bmc->states[rk->state].name,
				   (unsigned long long)(rg->base + at));
		}
		if (fallocate(fds[i], FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE, 0,
			      rg->size)) {
			err = errno;
			acma_log(bmc, OS_ERROR, "acma: rank %d: cannot drop %s: %s",
				 rank, rg->path, strerror(err));
		} else if (why == ACMA_DROP_POWER_OFF) {
			acma_log(bmc, INFO,
				 "acma: rank %d: dropped %s (0x%llx+0x%llx)", rank,
				 rg->path, (unsigned long long)rg->base,
				 (unsigned long long)rg->size);
		}
	}
	for (i = 0; i < n; i++)
		close(fds[i]);
	return err;
}

static uint64_t mono_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000ULL + ts.tv_nsec;
}

/**
 * acma_usable_in() - time until a rank that was powered on is usable
 * @bmc: the plugin
 * @rank: rank id
 *
 * Return: nanoseconds left of the exit latency (capped at
 * ACMA_MAX_EXIT_WAIT_NS) of the state the rank last left for "on", 0 if
 * none is left.
 */
uint64_t acma_usable_in(const struct acma_bmc *bmc, int rank)
{
	uint64_t now = mono_ns(), at = bmc->ranks[rank].usable_at;

	return at > now ? at - now : 0;
}

/**
 * acma_set_state() - put a rank in a power state
 * @bmc: the plugin
 * @rank: rank id, < @bmc->nr_ranks
 * @state: state index, < @bmc->nr_states
 * @who: who asked (user and channel, or the system interface), for the logs
 *
 * Does nothing if the rank is in @state already. Entering a state that
 * loses contents first punches the rank's backing files; powering up starts
 * the exit latency of the old state (acma_usable_in() tells how much of it
 * is left; the caller answers once it has passed). The new state is saved
 * before the
 * answer, then logged in the SEL and shown by the rank's sensor. Every
 * transition, and every refused one, is also appended to the durable
 * transition log with @who, whether the SEL took it or not.
 *
 * Return: 0 on success, an errno value if the contents could not be
 * dropped or the state could not be saved (the rank then keeps its old
 * state).
 */
int acma_set_state(struct acma_bmc *bmc, int rank, int state, const char *who)
{
	struct acma_rank *rk = &bmc->ranks[rank];
	int old = rk->state, err, sel_err;
	uint32_t old_count = rk->transitions;
	time_t old_change = rk->last_change;

	if (old == state)
		return 0;
	if (bmc->states[old].kept && !bmc->states[state].kept) {
		err = acma_drop_contents(bmc, rank, ACMA_DROP_POWER_OFF);
		if (err) {
			rk->failed = true;
			acma_sensor_update(bmc, rank);
			acma_audit(bmc, "rank %d (%s): %s -> %s by %s refused: contents not dropped (%s)",
				   rank, bmc->dimms[rk->dimm], bmc->states[old].name,
				   bmc->states[state].name, who, strerror(err));
			return err;
		}
	}
	acma_stats_update(bmc);
	rk->state = state;
	/*
	 * The count stops at the largest the state file holds: wrapped to 0
	 * next to a LAST-CHANGE, the file would be refused at the next start.
	 */
	if (rk->transitions < UINT32_MAX)
		rk->transitions++;
	rk->last_change = time(NULL);
	err = acma_state_write(bmc);
	if (err) {
		rk->state = old;
		rk->transitions = old_count;
		rk->last_change = old_change;
		acma_audit(bmc, "rank %d (%s): %s -> %s by %s refused: state not saved (%s)",
			   rank, bmc->dimms[rk->dimm], bmc->states[old].name,
			   bmc->states[state].name, who, strerror(err));
		return err;
	}
	if (state == bmc->on_state) {
		uint64_t ns = rk->latency_ns[old];

		if (ns > ACMA_MAX_EXIT_WAIT_NS)
			ns = ACMA_MAX_EXIT_WAIT_NS;
		rk->usable_at = mono_ns() + ns;
	}
	rk->failed = false;
	acma_sensor_update(bmc, rank);
	sel_err = acma_sel_transition(bmc, rank, old);
	acma_audit(bmc, "rank %d (%s): %s -> %s by %s%s%s", rank,
		   bmc->dimms[rk->dimm], bmc->states[old].name,
		   bmc->states[state].name, who,
		   sel_err == EAGAIN ? "; SEL full: not in the SEL, its overflow flag set" :
		   sel_err ? "; not in the SEL: " : "",
		   sel_err && sel_err != EAGAIN ? strerror(sel_err) : "");
	return 0;
}
