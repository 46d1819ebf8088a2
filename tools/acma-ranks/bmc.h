/* SPDX-License-Identifier: GPL-2.0 */
/*
 * bmc.h - what acma-ranks asks the BMC (firmware-glue/PROTOCOL.md) and
 * what it makes of the answers
 */
#ifndef ACMA_RANKS_BMC_H
#define ACMA_RANKS_BMC_H

#include <stdbool.h>
#include <stdint.h>
#include <time.h>

#include "ipmi.h"

#define BMC_NAME_MAX	16	/* DIMM and state names, PROTOCOL.md */
#define BMC_RANGES_MAX	32	/* ranges of one rank, PROTOCOL.md */

/* Get Domain Count (0x30 0x40). */
struct bmc_count {
	unsigned int ranks;
	unsigned int states;
	unsigned int on_state;	/* index of the "on" state */
};

struct bmc_range {
	uint64_t base;		/* guest-physical */
	uint64_t size;		/* bytes */
};

/* Why a query failed, for the operator: "WHAT: WHY". */
struct bmc_err {
	enum ipmi_fault fault;
	char what[96];		/* the ipmitool command line */
	char why[160];
};

/* What the BMC told about one rank; each group is valid when its have_ is. */
struct bmc_rank {
	unsigned int id;

	bool have_info;		/* Get Domain Info (0x41), every range */
	char dimm[BMC_NAME_MAX + 1];
	unsigned int nr_ranges;
	struct bmc_range ranges[BMC_RANGES_MAX];

	bool have_state;	/* Get Domain Power State (0x43) */
	unsigned int state;

	bool have_power;	/* Get Power-State Info (0x42) of the current state */
	char state_name[BMC_NAME_MAX + 1];
	uint32_t power_mw;

	bool have_on_power;	/* Get Power-State Info (0x42) of "on" */
	uint32_t on_mw;

	bool have_since;	/* 0x43: it changed state once at least */
	time_t since;		/* when it last did, by our clock */

	bool failed;		/* a query failed: the first one, in err */
	struct bmc_err err;
};

/* The DRAM power now (DCMI Get Power Reading). */
struct bmc_dram {
	bool have;
	unsigned int watts;
	struct bmc_err err;	/* why not, when !have */
};

int bmc_probe(struct ipmi_session *s, struct bmc_count *count, struct bmc_err *err);
int bmc_read(struct ipmi_session *s, const struct bmc_count *count,
	     struct bmc_rank *ranks, struct bmc_dram *dram);

#endif
