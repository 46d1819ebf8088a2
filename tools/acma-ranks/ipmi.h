/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ipmi.h - running the real ipmitool against the BMC, or replaying answers
 * it gave once (the testing aid behind the golden-output tests)
 */
#ifndef ACMA_RANKS_IPMI_H
#define ACMA_RANKS_IPMI_H

#include <stddef.h>
#include <time.h>

/* How to reach the BMC; replay_dir or record_dir are the testing aids. */
struct ipmi_conn {
	const char *ipmitool;	/* program name or path */
	const char *host;
	const char *port;
	const char *user;
	const char *password;
	const char *cipher;	/* the cipher suite, ipmitool -C */
	const char *replay_dir;	/* read answers from DIR/ipmitool.rec, run nothing */
	const char *record_dir;	/* append every answer to DIR/ipmitool.rec */
	int deadline_s;		/* kill an ipmitool run that takes longer than this */
};

/* Why a run failed, as far as ipmitool's messages tell. */
enum ipmi_fault {
	IPMI_OK,		/* exit status 0 */
	IPMI_UNREACHABLE,	/* no answer from the BMC, or its address is unknown */
	IPMI_BAD_LOGIN,		/* wrong user name or password */
	IPMI_NO_PRIVILEGE,	/* logged in, but the command needs a higher privilege */
	IPMI_COMPLETION,	/* the BMC answered with a completion code other than 0 */
	IPMI_FAILED,		/* ipmitool missing, killed, too slow or failing otherwise */
};

/* One ipmitool run. Each answer owns its buffers (NUL-terminated). */
struct ipmi_answer {
	char *out;
	size_t out_len;
	char *err;
	size_t err_len;
	time_t when;		/* when the answer came (a replay: when it was recorded) */
	enum ipmi_fault fault;
	char why[160];		/* one line for the operator when fault != IPMI_OK */
};

int ipmi_run(const struct ipmi_conn *conn, const char *const args[],
	     struct ipmi_answer *ans);
void ipmi_answer_free(struct ipmi_answer *ans);

#endif
