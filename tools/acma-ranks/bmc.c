// SPDX-License-Identifier: GPL-2.0
/*
 * bmc.c - what acma-ranks asks the BMC and what it makes of the answers
 *
 * Everything goes through `ipmitool raw`, which prints the response bytes
 * after the completion code as hex: acma's OEM commands and DCMI Get Power
 * Reading. firmware-glue/PROTOCOL.md describes every byte.
 */
#define _GNU_SOURCE
#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bmc.h"

#define NETFN_OEM		"0x30"
#define NETFN_DCMI		"0x2c"
#define CMD_DCMI_POWER		"0x02"
#define DCMI_GROUP		0xdc
#define CMD_GET_COUNT		"0x40"
#define CMD_GET_INFO		"0x41"
#define CMD_GET_STATE_INFO	"0x42"
#define CMD_GET_STATE		"0x43"
#define PROTOCOL_VERSION	1
#define NEVER_CHANGED		0xffffffffu	/* 0x43: seconds since the last change */
#define RSP_MAX			64	/* the longest answer, 0x41, is 37 bytes */

/* One ipmitool command line, after the connection options. */
struct cmd {
	const char *args[8];
	char num[2][12];
};

static void set_err(struct bmc_err *err, enum ipmi_fault fault,
		    const char *const args[], const char *fmt, ...)
{
	size_t len;
	va_list ap;
	int i;

	err->fault = fault;
	len = snprintf(err->what, sizeof(err->what), "ipmitool");
	for (i = 0; args[i] && len < sizeof(err->what); i++)
		len += snprintf(err->what + len, sizeof(err->what) - len, " %s",
				args[i]);
	va_start(ap, fmt);
	vsnprintf(err->why, sizeof(err->why), fmt, ap);
	va_end(ap);
}

/* ipmitool raw prints the answer as hex bytes, 16 a line. */
static int parse_hex(const char *text, uint8_t *bytes, size_t max)
{
	size_t n = 0;
	char *end;

	while (*text) {
		unsigned long v;

		if (*text == ' ' || *text == '\n') {
			text++;
			continue;
		}
		if (!isxdigit(text[0]) || !isxdigit(text[1]))
			return -1;
		v = strtoul(text, &end, 16);
		if (end != text + 2 || n == max)
			return -1;
		bytes[n++] = v;
		text = end;
	}
	return n;
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

/* `raw 0x30 CMD [A [B]]`: request bytes in decimal, as an operator types them. */
static const char *const *oem_cmd(struct cmd *c, bool verbose, const char *cmd,
				  int nr_req, unsigned int a, unsigned int b)
{
	unsigned int req[2] = { a, b };
	int n = 0, i;

	/* Only -v makes ipmitool tell a silent BMC from a refused login. */
	if (verbose)
		c->args[n++] = "-v";
	c->args[n++] = "raw";
	c->args[n++] = NETFN_OEM;
	c->args[n++] = cmd;
	for (i = 0; i < nr_req; i++) {
		snprintf(c->num[i], sizeof(c->num[i]), "%u", req[i]);
		c->args[n++] = c->num[i];
	}
	c->args[n] = NULL;
	return c->args;
}

/* The arguments without -v, for messages. */
static const char *const *shown(const char *const *args)
{
	return strcmp(args[0], "-v") ? args : args + 1;
}

/*
 * Sends one raw command. Returns the number of answer bytes, or -1; *when
 * (unless NULL) is when the answer came.
 */
static int oem(const struct ipmi_conn *conn, const char *const *args,
	       uint8_t *rsp, struct bmc_err *err, time_t *when)
{
	struct ipmi_answer ans;
	int len;

	if (ipmi_run(conn, args, &ans)) {
		set_err(err, ans.fault, shown(args), "%s", ans.why);
		ipmi_answer_free(&ans);
		return -1;
	}
	if (when)
		*when = ans.when;
	len = parse_hex(ans.out, rsp, RSP_MAX);
	if (len < 0)
		set_err(err, IPMI_FAILED, shown(args),
			"output that is not hex bytes");
	ipmi_answer_free(&ans);
	return len;
}

static int bad_answer(struct bmc_err *err, const char *const *args, int len)
{
	set_err(err, IPMI_FAILED, shown(args),
		"%d answer bytes that do not match PROTOCOL.md", len);
	return -1;
}

/**
 * bmc_probe() - open the first session and ask how many ranks there are
 * @conn: the BMC
 * @count: filled from Get Domain Count
 * @err: why it failed; err->fault tells an unreachable BMC from a refused
 *	login
 *
 * Return: 0 on success, -1 on failure.
 */
int bmc_probe(const struct ipmi_conn *conn, struct bmc_count *count,
	      struct bmc_err *err)
{
	uint8_t rsp[RSP_MAX];
	const char *const *args;
	struct cmd c;
	int len;

	args = oem_cmd(&c, true, CMD_GET_COUNT, 0, 0, 0);
	len = oem(conn, args, rsp, err, NULL);
	if (len < 0)
		return -1;
	if (len != 4 || rsp[2] >= rsp[1])
		return bad_answer(err, args, len);
	if (rsp[3] != PROTOCOL_VERSION) {
		set_err(err, IPMI_FAILED, shown(args),
			"protocol version %u, acma-ranks knows %u", rsp[3],
			PROTOCOL_VERSION);
		return -1;
	}
	count->ranks = rsp[0];
	count->states = rsp[1];
	count->on_state = rsp[2];
	return 0;
}

static int read_ranges(const struct ipmi_conn *conn, struct bmc_rank *rank,
		       struct bmc_err *err)
{
	uint8_t rsp[RSP_MAX];
	const char *const *args;
	unsigned int k = 0;
	struct cmd c;
	int len;

	/* The first answer tells how many ranges there are. */
	do {
		args = oem_cmd(&c, false, CMD_GET_INFO, 2, rank->id, k);
		len = oem(conn, args, rsp, err, NULL);
		if (len < 0)
			return -1;
		if (len < 21 || rsp[0] != rank->id || rsp[3] != k ||
		    !rsp[2] || rsp[2] > BMC_RANGES_MAX ||
		    (k && rsp[2] != rank->nr_ranges) ||
		    !get_name(rank->dimm, rsp + 20, len - 20))
			return bad_answer(err, args, len);
		rank->nr_ranges = rsp[2];
		rank->ranges[k].base = get_u64(rsp + 4);
		rank->ranges[k].size = get_u64(rsp + 12);
	} while (++k < rank->nr_ranges);
	rank->have_info = true;
	return 0;
}

static int read_state_info(const struct ipmi_conn *conn, unsigned int id,
			   unsigned int state, char *name, uint32_t *mw,
			   struct bmc_err *err)
{
	uint8_t rsp[RSP_MAX];
	const char *const *args;
	struct cmd c;
	int len;

	args = oem_cmd(&c, false, CMD_GET_STATE_INFO, 2, id, state);
	len = oem(conn, args, rsp, err, NULL);
	if (len < 0)
		return -1;
	if (len < 16 || rsp[0] != id || rsp[1] != state ||
	    !get_name(name, rsp + 15, len - 15))
		return bad_answer(err, args, len);
	*mw = get_u32(rsp + 3);
	return 0;
}

/**
 * bmc_read_rank() - read one rank's DIMM, ranges, state and power
 * @conn: the BMC
 * @count: from bmc_probe()
 * @rank: rank->id says which; the groups read are marked with their have_
 * @err: the first query that failed
 *
 * Return: 0 if everything was read, -1 if something was not.
 */
int bmc_read_rank(const struct ipmi_conn *conn, const struct bmc_count *count,
		  struct bmc_rank *rank, struct bmc_err *err)
{
	uint8_t rsp[RSP_MAX];
	const char *const *args;
	char on_name[BMC_NAME_MAX + 1];
	time_t ans_when;
	struct cmd c;
	int len;

	if (read_ranges(conn, rank, err))
		return -1;

	args = oem_cmd(&c, false, CMD_GET_STATE, 1, rank->id, 0);
	len = oem(conn, args, rsp, err, &ans_when);
	if (len < 0)
		return -1;
	if (len != 10 || rsp[0] != rank->id || rsp[1] >= count->states)
		return bad_answer(err, args, len);
	rank->state = rsp[1];
	rank->have_state = true;
	/* The BMC counts the seconds itself: no clock of its to trust. */
	if (get_u32(rsp + 6) != NEVER_CHANGED) {
		rank->since = ans_when - get_u32(rsp + 6);
		rank->have_since = true;
	}

	if (read_state_info(conn, rank->id, count->on_state, on_name,
			    &rank->on_mw, err))
		return -1;
	rank->have_on_power = true;
	if (rank->state == count->on_state) {
		memcpy(rank->state_name, on_name, sizeof(on_name));
		rank->power_mw = rank->on_mw;
	} else if (read_state_info(conn, rank->id, rank->state,
				   rank->state_name, &rank->power_mw, err)) {
		return -1;
	}
	rank->have_power = true;
	return 0;
}

/**
 * bmc_read_dram_power() - the DRAM power now, from DCMI
 * @conn: the BMC
 * @watts: the instantaneous reading, W
 * @err: why it could not be read
 *
 * Return: 0 on success, -1 on failure.
 */
int bmc_read_dram_power(const struct ipmi_conn *conn, unsigned int *watts,
			struct bmc_err *err)
{
	/* Get Power Reading, mode 1 (system power statistics): the BMC's only one. */
	static const char *const args[] = { "raw", NETFN_DCMI, CMD_DCMI_POWER, "0xdc",
					    "0x01", "0x00", "0x00", NULL };
	uint8_t rsp[RSP_MAX];
	int len;

	len = oem(conn, args, rsp, err, NULL);
	if (len < 0)
		return -1;
	if (len != 18 || rsp[0] != DCMI_GROUP)
		return bad_answer(err, args, len);
	*watts = rsp[1] | rsp[2] << 8;
	return 0;
}
