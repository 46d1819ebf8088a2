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
};

/* Why a query failed, for the operator: "WHAT: WHY". */
struct bmc_err {
	enum ipmi_fault fault;
	char what[96];		/* the ipmitool command line */
	char why[160];
};

int bmc_probe(const struct ipmi_conn *conn, struct bmc_count *count,
	      struct bmc_err *err);
int bmc_read_rank(const struct ipmi_conn *conn, const struct bmc_count *count,
		  struct bmc_rank *rank, struct bmc_err *err);
int bmc_read_dram_power(const struct ipmi_conn *conn, unsigned int *watts,
			struct bmc_err *err);

#endif
