// SPDX-License-Identifier: GPL-2.0
/*
 * domain.c - rank power-state transitions and the DRAM power they cost
 *
 * A transition into a state that loses contents really drops them: every
 * backing file of the rank is punched over its whole range, so the guest
 * reads zeros afterwards. Each transition is persisted, logged in the SEL
 * and reflected in the rank's memory sensor.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
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

static uint64_t ms_between(const struct timespec *a, const struct timespec *b)
{
	return (b->tv_sec - a->tv_sec) * 1000ULL +
	       (b->tv_nsec - a->tv_nsec) / 1000000LL;
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
		st->min_mw = now_mw;
		st->max_mw = now_mw;
	} else {
		st->energy += (uint64_t)now_mw * ms_between(&st->last, &now);
	}
	st->last = now;
	if (now_mw < st->min_mw)
		st->min_mw = now_mw;
	if (now_mw > st->max_mw)
		st->max_mw = now_mw;
}

/**
 * acma_drop_contents() - drop the contents of every backing file of a rank
 * @bmc: the plugin
 * @rank: rank id
 * @log: log each file dropped (failures are always logged)
 */
void acma_drop_contents(struct acma_bmc *bmc, int rank, bool log)
{
	const struct acma_rank *rk = &bmc->ranks[rank];
	int i, fd;

	for (i = 0; i < rk->nr_ranges; i++) {
		const struct acma_range *rg = &rk->ranges[i];

		fd = open(rg->path, O_RDWR | O_CLOEXEC);
		if (fd < 0) {
			acma_log(bmc, OS_ERROR,
				 "acma: rank %d: %s: %s; nothing to drop", rank,
				 rg->path, strerror(errno));
			continue;
		}
		if (fallocate(fd, FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE, 0,
			      rg->size))
			acma_log(bmc, OS_ERROR,
				 "acma: rank %d: cannot drop %s: %s", rank,
				 rg->path, strerror(errno));
		else if (log)
			acma_log(bmc, INFO,
				 "acma: rank %d: dropped %s (0x%llx+0x%llx)", rank,
				 rg->path, (unsigned long long)rg->base,
				 (unsigned long long)rg->size);
		close(fd);
	}
}

/* Simulate the time the rank takes to leave @state (capped). */
static void wait_exit_latency(const struct acma_rank *rk, int state)
{
	uint64_t ns = rk->latency_ns[state];
	struct timespec ts;

	if (ns > ACMA_MAX_EXIT_WAIT_NS)
		ns = ACMA_MAX_EXIT_WAIT_NS;
	ts.tv_sec = ns / 1000000000ULL;
	ts.tv_nsec = ns % 1000000000ULL;
	while (nanosleep(&ts, &ts) && errno == EINTR)
		;
}

/**
 * acma_set_state() - put a rank in a power state
 * @bmc: the plugin
 * @rank: rank id, < @bmc->nr_ranks
 * @state: state index, < @bmc->nr_states
 * @channel: IPMI channel the request came in on, for the log
 *
 * Does nothing if the rank is in @state already. Powering up waits the exit
 * latency of the old state; entering a state that loses contents punches
 * the rank's backing files. The new state is saved before the answer, then
 * logged in the SEL and shown by the rank's sensor.
 *
 * Return: 0 on success, an errno value if the state could not be saved
 * (the rank then keeps its old state).
 */
int acma_set_state(struct acma_bmc *bmc, int rank, int state, int channel)
{
	struct acma_rank *rk = &bmc->ranks[rank];
	int old = rk->state, err;
	uint32_t old_count = rk->transitions;
	time_t old_change = rk->last_change;

	if (old == state)
		return 0;
	acma_stats_update(bmc);
	rk->state = state;
	rk->transitions++;
	rk->last_change = time(NULL);
	err = acma_state_write(bmc);
	if (err) {
		rk->state = old;
		rk->transitions = old_count;
		rk->last_change = old_change;
		return err;
	}
	if (bmc->states[old].kept && !bmc->states[state].kept)
		acma_drop_contents(bmc, rank, true);
	if (state == bmc->on_state)
		wait_exit_latency(rk, old);
	acma_log(bmc, INFO, "acma: rank %d (%s): %s -> %s (channel %d)", rank,
		 bmc->dimms[rk->dimm], bmc->states[old].name,
		 bmc->states[state].name, channel);
	acma_sensor_update(bmc, rank);
	acma_sel_transition(bmc, rank, old);
	return 0;
}
