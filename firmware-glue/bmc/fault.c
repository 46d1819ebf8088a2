// SPDX-License-Identifier: GPL-2.0
/*
 * fault.c - what the simulated hardware does that tests must be able to see
 *
 * Real DRAM that is off loses its contents all the time, not once at the
 * power-off: every ACMA_DROP_PERIOD_MS the backing files of every rank in a
 * state that does not keep contents are dropped again, so that a write that
 * reaches a rank while it is off (through a stale mapping, or to memory the
 * OS added before the rank was really on) reads back as zeros.
 *
 * A BMC that is slow to answer: when the file "faults" in the BMC's state
 * directory holds a line "late-ms N", the next Set Power State request is
 * carried out at once and answered N ms later, after the requester may have
 * given up waiting: the change happened although it was never confirmed.
 * The file is used once (removed). The host agent writes it
 * (scripts/host-agent.sh, "bmc late MS"); the BMC does nothing else while
 * it waits, as a hung BMC does.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>
#include <unistd.h>

#include "acma-bmc.h"

/* How often the contents of ranks that are off are dropped again. */
#define ACMA_DROP_PERIOD_MS	50

/* The faults file: "faults" beside the state file. */
static char *faults_path(const struct acma_bmc *bmc)
{
	char *copy = strdup(bmc->state_path), *path = NULL;

	if (copy && asprintf(&path, "%s/faults", dirname(copy)) < 0)
		path = NULL;
	free(copy);
	return path;
}

/**
 * acma_fault_late_ms() - how late the answer to a power change comes
 * @bmc: the plugin
 *
 * Reads the faults file and removes it: the fault applies once.
 *
 * Return: the "late-ms" value of the faults file, 0 when there is none.
 */
unsigned int acma_fault_late_ms(struct acma_bmc *bmc)
{
	char *path = faults_path(bmc), key[32];
	unsigned int ms = 0, v;
	FILE *f;

	f = path ? fopen(path, "re") : NULL;
	if (f)
		unlink(path);
	free(path);
	if (!f)
		return 0;
	while (fscanf(f, "%31s %u", key, &v) == 2)
		if (!strcmp(key, "late-ms"))
			ms = v > 60000 ? 60000 : v;
	fclose(f);
	if (ms)
		acma_log(bmc, INFO, "acma: fault: answering %u ms late", ms);
	return ms;
}

static void drop_timer_arm(struct acma_bmc *bmc)
{
	struct timeval tv = { 0, ACMA_DROP_PERIOD_MS * 1000 };

	bmc->sys->start_timer(bmc->drop_timer, &tv);
}

static void drop_timer_fn(void *data)
{
	struct acma_bmc *bmc = data;
	int i;

	for (i = 0; i < bmc->nr_ranks; i++)
		if (!bmc->states[bmc->ranks[i].state].kept)
			acma_drop_contents(bmc, i, false);
	drop_timer_arm(bmc);
}

/**
 * acma_fault_init() - start dropping the contents of ranks that are off
 * @bmc: the plugin
 *
 * Return: 0, or an errno value when the timer cannot be had (logged).
 */
int acma_fault_init(struct acma_bmc *bmc)
{
	int err;

	err = bmc->sys->alloc_timer(bmc->sys, drop_timer_fn, bmc,
				    &bmc->drop_timer);
	if (err) {
		acma_log(bmc, SETUP_ERROR, "acma: no timer: %s", strerror(err));
		return err;
	}
	drop_timer_arm(bmc);
	return 0;
}
