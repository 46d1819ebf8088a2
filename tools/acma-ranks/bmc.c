// SPDX-License-Identifier: GPL-2.0
/*
 * bmc.c - what acma-ranks asks the BMC and what it makes of the answers
 *
 * Everything goes through `ipmitool raw` in one session (ipmi.c), whose
 * answers are the response bytes after the completion code: acma's OEM
 * commands and DCMI Get Power Reading. firmware-glue/PROTOCOL.md describes
 * every byte. Three batches, each made from the answers to the one before:
 *
 *	1. Get Domain Count (0x40): how many ranks and states, which one is on;
 *	2. per rank, the first range and the DIMM (0x41 R 0), the state (0x43 R)
 *	   and the power when on (0x42 R ON); then the DRAM power;
 *	3. per rank, its other ranges (0x41 R K, K < the count 0x41 R 0 gave)
 *	   and, when it is not on, its state's power and name (0x42 R STATE).
 *
 * So a status costs three round trips between acma-ranks and ipmitool,
 * whatever the number of ranks, and no more commands than before.
 */
#define _GNU_SOURCE
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bmc.h"

#define NETFN_OEM		"0x30"
#define CMD_GET_COUNT		"0x40"
#define CMD_GET_INFO		"0x41"
#define CMD_GET_STATE_INFO	"0x42"
#define CMD_GET_STATE		"0x43"
#define PROTOCOL_VERSION	1
#define NEVER_CHANGED		0xffffffffu	/* 0x43: seconds since the last change */
/* DCMI Get Power Reading, mode 1 (system power statistics): the BMC's only one. */
#define DCMI_POWER_READING	"raw 0x2c 0x02 0xdc 0x01 0x00 0x00"
#define DCMI_GROUP		0xdc

/* One query of a batch and the ipmitool line that asks it. */
struct query {
	enum {
		Q_INFO,		/* 0x41 rank k */
		Q_STATE,	/* 0x43 rank */
		Q_ON_POWER,	/* 0x42 rank on */
		Q_POWER,	/* 0x42 rank state */
		Q_DRAM,		/* DCMI */
	} kind;
	unsigned int rank, k;
	char line[48];
};

/* What a rank's answers left to the next batch. */
struct rank_work {
	char on_name[BMC_NAME_MAX + 1];
	unsigned int got_ranges;
	int err_order;		/* of the failure in rank->err: the earliest query wins */
};

static void set_err(struct bmc_err *err, enum ipmi_fault fault, const char *line,
		    const char *fmt, ...)
{
	va_list ap;

	err->fault = fault;
	snprintf(err->what, sizeof(err->what), "ipmitool %s", line);
	va_start(ap, fmt);
	vsnprintf(err->why, sizeof(err->why), fmt, ap);
	va_end(ap);
}

static uint32_t get_u32(const uint8_t *p)
{
	return p[0] | p[1] << 8 | p[2] << 16 | (uint32_t)p[3] << 24;
}

static uint64_t get_u64(const uint8_t *p)
{
	return get_u32(p) | (uint64_t)get_u32(p + 4) << 32;
}

/* Copies a length-prefixed name that ends the answer; false if it does not. */
static bool get_name(char *dst, const uint8_t *p, size_t left)
{
	if (!left || p[0] > BMC_NAME_MAX || p[0] + 1u != left)
		return false;
	memcpy(dst, p + 1, p[0]);
	dst[p[0]] = '\0';
	return true;
}

/**
 * bmc_probe() - ask the BMC how many ranks there are
 * @s: the session
 * @count: filled from Get Domain Count
 * @err: why it failed; err->fault tells a BMC that stopped answering
 *	(IPMI_UNREACHABLE) or refuses the account (IPMI_NO_PRIVILEGE, 0xd4)
 *
 * Return: 0 on success, -1 on failure.
 */
int bmc_probe(struct ipmi_session *s, struct bmc_count *count, struct bmc_err *err)
{
	static const char line[] = "raw " NETFN_OEM " " CMD_GET_COUNT;
	const char *const cmds[] = { line };
	struct ipmi_answer ans;

	ipmi_batch(s, 1, cmds, &ans);
	if (ans.fault != IPMI_OK) {
		set_err(err, ans.fault, line, "%s", ans.why);
		return -1;
	}
	if (ans.len != 4 || ans.rsp[2] >= ans.rsp[1]) {
		set_err(err, IPMI_FAILED, line,
			"%d answer bytes that do not match PROTOCOL.md", ans.len);
		return -1;
	}
	if (ans.rsp[3] != PROTOCOL_VERSION) {
		set_err(err, IPMI_FAILED, line, "protocol version %u, acma-ranks knows %u",
			ans.rsp[3], PROTOCOL_VERSION);
		return -1;
	}
	count->ranks = ans.rsp[0];
	count->states = ans.rsp[1];
	count->on_state = ans.rsp[2];
	return 0;
}

static void add_query(struct query *q, size_t *n, int kind, unsigned int rank,
		      unsigned int k)
{
	struct query *e = &q[(*n)++];

	e->kind = kind;
	e->rank = rank;
	e->k = k;
	switch (kind) {
	case Q_INFO:
		snprintf(e->line, sizeof(e->line), "raw %s %s %u %u", NETFN_OEM,
			 CMD_GET_INFO, rank, k);
		break;
	case Q_STATE:
		snprintf(e->line, sizeof(e->line), "raw %s %s %u", NETFN_OEM,
			 CMD_GET_STATE, rank);
		break;
	case Q_ON_POWER:
	case Q_POWER:
		snprintf(e->line, sizeof(e->line), "raw %s %s %u %u", NETFN_OEM,
			 CMD_GET_STATE_INFO, rank, k);
		break;
	default:
		snprintf(e->line, sizeof(e->line), "%s", DCMI_POWER_READING);
		break;
	}
}

/* Sends the queries in one batch (cmds: room for n); their answers in ans[]. */
static void send_batch(struct ipmi_session *s, const struct query *q, size_t n,
		       const char **cmds, struct ipmi_answer *ans)
{
	size_t i;

	for (i = 0; i < n; i++)
		cmds[i] = q[i].line;
	ipmi_batch(s, n, cmds, ans);
}

/* The earlier a query comes in a rank's reading, the more its failure says. */
static int order(const struct query *q)
{
	return q->kind == Q_INFO ? (int)q->k : BMC_RANGES_MAX + (int)q->kind;
}

/* Keeps the rank's failure that comes first in the order of its queries. */
static void rank_failed(struct bmc_rank *rank, struct rank_work *w,
			const struct query *q, enum ipmi_fault fault,
			const char *fmt, const char *why, int len)
{
	if (rank->failed && w->err_order <= order(q))
		return;
	rank->failed = true;
	w->err_order = order(q);
	if (why)
		set_err(&rank->err, fault, q->line, "%s", why);
	else
		set_err(&rank->err, fault, q->line, fmt, len);
}

#define BAD_ANSWER	"%d answer bytes that do not match PROTOCOL.md"

/* Takes one answer into the rank (or the DRAM power); false if it is wrong. */
static bool take(const struct query *q, const struct ipmi_answer *a,
		 const struct bmc_count *count, struct bmc_rank *rank,
		 struct rank_work *w, struct bmc_dram *dram)
{
	const uint8_t *rsp = a->rsp;
	int len = a->len;
	char name[BMC_NAME_MAX + 1];

	switch (q->kind) {
	case Q_INFO:
		if (len < 21 || rsp[0] != rank->id || rsp[3] != q->k || !rsp[2] ||
		    rsp[2] > BMC_RANGES_MAX || (q->k && rsp[2] != rank->nr_ranges) ||
		    !get_name(name, rsp + 20, len - 20) ||
		    (q->k && strcmp(name, rank->dimm)))
			return false;
		memcpy(rank->dimm, name, sizeof(name));
		rank->nr_ranges = rsp[2];
		rank->ranges[q->k].base = get_u64(rsp + 4);
		rank->ranges[q->k].size = get_u64(rsp + 12);
		w->got_ranges++;
		return true;
	case Q_STATE:
		if (len != 10 || rsp[0] != rank->id || rsp[1] >= count->states)
			return false;
		rank->state = rsp[1];
		rank->have_state = true;
		/* The BMC counts the seconds itself: no clock of its to trust. */
		if (get_u32(rsp + 6) != NEVER_CHANGED) {
			rank->since = a->when - get_u32(rsp + 6);
			rank->have_since = true;
		}
		return true;
	case Q_ON_POWER:
	case Q_POWER:
		if (len < 16 || rsp[0] != rank->id || rsp[1] != q->k ||
		    !get_name(q->kind == Q_POWER ? rank->state_name : w->on_name,
			      rsp + 15, len - 15))
			return false;
		if (q->kind == Q_POWER) {
			rank->power_mw = get_u32(rsp + 3);
			rank->have_power = true;
		} else {
			rank->on_mw = get_u32(rsp + 3);
			rank->have_on_power = true;
		}
		return true;
	case Q_DRAM:
		if (len != 18 || rsp[0] != DCMI_GROUP)
			return false;
		dram->watts = rsp[1] | rsp[2] << 8;
		dram->have = true;
		return true;
	}
	return false;
}

static void take_all(const struct query *q, const struct ipmi_answer *ans, size_t n,
		     const struct bmc_count *count, struct bmc_rank *ranks,
		     struct rank_work *work, struct bmc_dram *dram)
{
	size_t i;

	for (i = 0; i < n; i++) {
		struct bmc_rank *rank = &ranks[q[i].rank];
		struct rank_work *w = &work[q[i].rank];

		if (q[i].kind == Q_DRAM) {
			if (ans[i].fault != IPMI_OK)
				set_err(&dram->err, ans[i].fault, q[i].line, "%s", ans[i].why);
			else if (!take(&q[i], &ans[i], count, rank, w, dram))
				set_err(&dram->err, IPMI_FAILED, q[i].line, BAD_ANSWER,
					ans[i].len);
		} else if (ans[i].fault != IPMI_OK) {
			rank_failed(rank, w, &q[i], ans[i].fault, NULL, ans[i].why, 0);
		} else if (!take(&q[i], &ans[i], count, rank, w, dram)) {
			rank_failed(rank, w, &q[i], IPMI_FAILED, BAD_ANSWER, NULL,
				    ans[i].len);
		}
	}
}

/**
 * bmc_read() - read every rank's DIMM, ranges, state, since when and power,
 * and the DRAM power now, in two batches
 * @s: the session
 * @count: from bmc_probe()
 * @ranks: count->ranks of them, ids set; what was read is marked with its
 *	have_, a rank with a failed query with failed and err (its first query
 *	that failed)
 * @dram: the DRAM power, or why not
 *
 * Return: 0 if everything was read, -1 if something was not.
 */
int bmc_read(struct ipmi_session *s, const struct bmc_count *count,
	     struct bmc_rank *ranks, struct bmc_dram *dram)
{
	/* The most queries of a batch: every range and 0x42 of every rank. */
	size_t max = (size_t)count->ranks * (BMC_RANGES_MAX + 2) + 1, n = 0;
	struct query *q = calloc(max, sizeof(*q));
	struct ipmi_answer *ans = calloc(max, sizeof(*ans));
	struct rank_work *work = calloc(count->ranks + 1, sizeof(*work));
	const char **cmds = calloc(max, sizeof(*cmds));
	unsigned int r, k;
	int ret = 0;

	memset(dram, 0, sizeof(*dram));
	if (!q || !ans || !work || !cmds) {
		free(q);
		free(ans);
		free(work);
		free(cmds);
		for (r = 0; r < count->ranks; r++) {
			ranks[r].failed = true;
			set_err(&ranks[r].err, IPMI_FAILED, "", "out of memory");
		}
		set_err(&dram->err, IPMI_FAILED, "", "out of memory");
		return -1;
	}

	for (r = 0; r < count->ranks; r++) {
		add_query(q, &n, Q_INFO, r, 0);
		add_query(q, &n, Q_STATE, r, 0);
		add_query(q, &n, Q_ON_POWER, r, count->on_state);
	}
	add_query(q, &n, Q_DRAM, 0, 0);
	send_batch(s, q, n, cmds, ans);
	take_all(q, ans, n, count, ranks, work, dram);

	n = 0;
	for (r = 0; r < count->ranks; r++) {
		if (work[r].got_ranges == 1)
			for (k = 1; k < ranks[r].nr_ranges; k++)
				add_query(q, &n, Q_INFO, r, k);
		if (ranks[r].have_state && ranks[r].state != count->on_state)
			add_query(q, &n, Q_POWER, r, ranks[r].state);
	}
	if (n)
		send_batch(s, q, n, cmds, ans);
	take_all(q, ans, n, count, ranks, work, dram);

	for (r = 0; r < count->ranks; r++) {
		struct bmc_rank *rank = &ranks[r];

		rank->have_info = work[r].got_ranges && work[r].got_ranges == rank->nr_ranges;
		if (rank->have_state && rank->state == count->on_state &&
		    rank->have_on_power) {
			memcpy(rank->state_name, work[r].on_name, sizeof(rank->state_name));
			rank->power_mw = rank->on_mw;
			rank->have_power = true;
		}
		if (rank->failed)
			ret = -1;
	}
	if (!dram->have)
		ret = -1;
	free(q);
	free(ans);
	free(work);
	free(cmds);
	return ret;
}
