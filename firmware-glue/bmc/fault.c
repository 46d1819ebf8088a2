// SPDX-License-Identifier: GPL-2.0
/*
 * fault.c - what the simulated hardware does that tests must be able to see
 *
 * Real DRAM that is off loses its contents all the time, not once at the
 * power-off: every ACMA_DROP_PERIOD_MS the backing files of every rank in a
 * state that does not keep contents are dropped again, so that a write that
 * reaches a rank while it is off (through a stale mapping, or to memory the
 * OS added before the rank was really on) reads back as zeros. Before each
 * drop, data found in a file is memory that was accessed while the rank was
 * off, and is reported: "acma: rank N: memory accessed while off, at ADDR" in
 * the BMC log (make test fails a run whose BMC log has it).
 *
 * A BMC that misbehaves, once: the file "faults" in the BMC's state
 * directory (the host agent writes it: scripts/host-agent.sh, "bmc late",
 * "bmc cc", "bmc short", "bmc echo") changes how the next Set Power State
 * request is handled, and is removed by that request. A line
 *
 *   late-ms N   carries the change out at once and answers N ms later, after
 *               the requester may have given up waiting: the change happened
 *               although it was never confirmed. The BMC does nothing else
 *               while it waits, as a hung BMC does.
 *   cc N        does not carry the change out and answers completion code N
 *               (an honest failure: busy, out of resources...).
 *   short 1     carries the change out and answers with the completion code
 *               and one byte only.
 *   echo 1      carries the change out and answers with another domain than
 *               the one asked for echoed.
 *
 * The last three are a BMC whose answer cannot be believed: the requester
 * must treat the domain's state as unknown, never as unchanged.
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
 * acma_fault_take() - how the next power change goes wrong, if it does
 * @bmc: the plugin
 * @fault: filled in: all zero when the change goes right
 *
 * Reads the faults file and removes it: the fault applies once. Lines that
 * do not parse end the reading; values are clamped (late-ms to 60 s, cc to a
 * byte other than 0).
 */
void acma_fault_take(struct acma_bmc *bmc, struct acma_fault *fault)
{
	char *path = faults_path(bmc), key[32];
	unsigned int v;
	FILE *f;

	memset(fault, 0, sizeof(*fault));
	f = path ? fopen(path, "re") : NULL;
	if (f)
		unlink(path);
	free(path);
	if (!f)
		return;
	while (fscanf(f, "%31s %u", key, &v) == 2) {
		if (!strcmp(key, "late-ms"))
			fault->late_ms = v > 60000 ? 60000 : v;
		else if (!strcmp(key, "cc") && v && v <= 0xff)
			fault->cc = v;
		else if (!strcmp(key, "short"))
			fault->short_answer = v != 0;
		else if (!strcmp(key, "echo"))
			fault->bad_echo = v != 0;
	}
	fclose(f);
	if (fault->late_ms)
		acma_log(bmc, INFO, "acma: fault: answering %u ms late",
			 fault->late_ms);
	if (fault->cc)
		acma_log(bmc, INFO, "acma: fault: refusing with completion code 0x%02x",
			 fault->cc);
	if (fault->short_answer)
		acma_log(bmc, INFO, "acma: fault: answering short");
	if (fault->bad_echo)
		acma_log(bmc, INFO, "acma: fault: echoing another domain");
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
			acma_drop_contents(bmc, i, ACMA_DROP_AGAIN);
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
