/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ipmi.h - one session of the real ipmitool with the BMC, raw commands sent
 * in batches; or, in-band, the same commands through the kernel's IPMI
 * device (devipmi.c); or a replay of the answers ipmitool gave once (the
 * testing aid behind the golden-output tests)
 */
#ifndef ACMA_RANKS_IPMI_H
#define ACMA_RANKS_IPMI_H

#include <stddef.h>
#include <stdint.h>
#include <time.h>

#define IPMI_RSP_MAX	64	/* response bytes after the completion code */

/* How to reach the BMC; replay_dir or record_dir are the testing aids. */
struct ipmi_conn {
	const char *ipmitool;	/* program name or path */
	const char *host;
	const char *port;
	const char *user;
	const char *password;
	const char *cipher;	/* the cipher suite, ipmitool -C */
	const char *replay_dir;	/* read answers from DIR/ipmitool.rec, run nothing */
	const char *record_dir;	/* write every answer to DIR/ipmitool.rec */
	int deadline_s;		/* kill an ipmitool run that takes longer than this */
	const char *device;	/* in-band: the kernel's IPMI device, no ipmitool */
};

/* Why the session or a command failed. */
enum ipmi_fault {
	IPMI_OK,
	IPMI_UNREACHABLE,	/* no answer from the BMC, or its address is unknown */
	IPMI_BAD_LOGIN,		/* wrong user name or password */
	IPMI_NO_PRIVILEGE,	/* completion code 0xd4, or a role refused at login */
	IPMI_COMPLETION,	/* another completion code than 0 */
	IPMI_FAILED,		/* ipmitool missing, killed, too slow or failing otherwise */
};

/* The answer to one command, or why there is none. */
struct ipmi_answer {
	uint8_t rsp[IPMI_RSP_MAX];	/* the response bytes after the completion code */
	int len;
	time_t when;		/* when it came (a replay: when it was recorded) */
	enum ipmi_fault fault;
	unsigned int ccode;	/* the completion code, with IPMI_COMPLETION or 0xd4 */
	char why[160];		/* one line for the operator when fault != IPMI_OK */
};

struct ipmi_session;

struct ipmi_session *ipmi_open(const struct ipmi_conn *conn,
			       struct ipmi_answer *fail);
void ipmi_batch(struct ipmi_session *s, size_t n, const char *const cmds[],
		struct ipmi_answer ans[]);
void ipmi_close(struct ipmi_session *s);

#endif
