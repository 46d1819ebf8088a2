// SPDX-License-Identifier: GPL-2.0
/*
 * devipmi.c - in-band: raw commands to the machine's own BMC through the
 * kernel's IPMI device (/dev/ipmi0, ipmi_devintf), no ipmitool, no session
 *
 * The request goes to the BMC on the system interface (KCS, SMIC or BT, as
 * the kernel's ipmi_si found it), the way firmware and the kernel's own
 * drivers reach it; the kernel's message handler serialises it with every
 * other user of the interface (the DRAM power driver among them). The
 * commands are the ipmitool lines bmc.c writes ("raw NETFN CMD DATA...",
 * numbers as ipmitool reads them: 0x.. hexadecimal, 0.. octal, else
 * decimal), so bmc.c does not know which way its questions travel.
 *
 * Privilege: whoever may open the device node may send anything; the
 * system interface has no accounts. The node is root's (0600) by default.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <linux/ipmi.h>
#include <poll.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <time.h>
#include <unistd.h>

#include "devipmi.h"

/* "raw 0x30 0x43 5" into netfn, cmd and data; false if it is not one. */
static bool parse_raw_line(const char *line, unsigned char *netfn, unsigned char *cmd,
			   unsigned char *data, unsigned int *len)
{
	char *copy = strdup(line), *tok, *save = NULL, *end;
	unsigned int n = 0;
	bool ok = copy != NULL;

	*len = 0;
	tok = copy ? strtok_r(copy, " \t", &save) : NULL;
	if (!tok || strcmp(tok, "raw"))
		ok = false;
	while (ok && (tok = strtok_r(NULL, " \t", &save))) {
		unsigned long v;

		errno = 0;
		v = strtoul(tok, &end, 0);
		if (errno || *end || end == tok || v > 0xff ||
		    n >= 2 + IPMI_MAX_MSG_LENGTH) {
			ok = false;
			break;
		}
		if (n == 0)
			*netfn = v;
		else if (n == 1)
			*cmd = v;
		else
			data[(*len)++] = v;
		n++;
	}
	free(copy);
	return ok && n >= 2;
}

/**
 * devipmi_open() - open the kernel's IPMI device
 * @dev: its node, e.g. /dev/ipmi0
 * @fail: when it returns -1: why (IPMI_UNREACHABLE when there is no such
 *	device: no system interface, or ipmi_devintf not loaded;
 *	IPMI_NO_PRIVILEGE when the node may not be opened)
 *
 * Return: the open device, or -1.
 */
int devipmi_open(const char *dev, struct ipmi_answer *fail)
{
	int fd = open(dev, O_RDWR | O_CLOEXEC);

	if (fd >= 0)
		return fd;
	fail->fault = errno == EACCES || errno == EPERM ? IPMI_NO_PRIVILEGE :
		      errno == ENOENT || errno == ENXIO || errno == ENODEV ?
		      IPMI_UNREACHABLE : IPMI_FAILED;
	snprintf(fail->why, sizeof(fail->why), "cannot open %s: %s%s", dev,
		 strerror(errno),
		 fail->fault == IPMI_UNREACHABLE ?
		 " (no BMC on a system interface, or ipmi_devintf not loaded)" : "");
	return -1;
}

/* Receive the answer to request @msgid within @timeout_ms; the rest is dropped. */
static void receive(int fd, long msgid, int timeout_ms, struct ipmi_answer *ans)
{
	unsigned char buf[IPMI_MAX_MSG_LENGTH];
	struct ipmi_addr from;
	struct ipmi_recv recv;
	struct timespec t0, t;
	int left = timeout_ms;

	clock_gettime(CLOCK_MONOTONIC, &t0);
	for (;;) {
		struct pollfd pfd = { .fd = fd, .events = POLLIN };
		int n = poll(&pfd, 1, left);

		if (n < 0 && errno != EINTR) {
			ans->fault = IPMI_FAILED;
			snprintf(ans->why, sizeof(ans->why), "poll: %s", strerror(errno));
			return;
		}
		if (n > 0) {
			memset(&recv, 0, sizeof(recv));
			recv.addr = (unsigned char *)&from;
			recv.addr_len = sizeof(from);
			recv.msg.data = buf;
			recv.msg.data_len = sizeof(buf);
			if (ioctl(fd, IPMICTL_RECEIVE_MSG_TRUNC, &recv) < 0) {
				if (errno == EAGAIN || errno == EINTR)
					continue;
				ans->fault = IPMI_FAILED;
				snprintf(ans->why, sizeof(ans->why), "receive: %s",
					 strerror(errno));
				return;
			}
			/* an answer to an earlier, timed-out request: not ours */
			if (recv.msgid == msgid && recv.recv_type == IPMI_RESPONSE_RECV_TYPE)
				break;
		}
		clock_gettime(CLOCK_MONOTONIC, &t);
		left = timeout_ms - (int)((t.tv_sec - t0.tv_sec) * 1000 +
					  (t.tv_nsec - t0.tv_nsec) / 1000000);
		if (left <= 0) {
			ans->fault = IPMI_UNREACHABLE;
			snprintf(ans->why, sizeof(ans->why),
				 "no answer from the BMC within %d ms", timeout_ms);
			return;
		}
	}
	if (!recv.msg.data_len) {
		ans->fault = IPMI_FAILED;
		snprintf(ans->why, sizeof(ans->why), "an answer without a completion code");
		return;
	}
	ans->ccode = buf[0];
	if (ans->ccode) {
		ans->fault = ans->ccode == 0xd4 ? IPMI_NO_PRIVILEGE : IPMI_COMPLETION;
		if (ans->ccode == 0xd4) {
			snprintf(ans->why, sizeof(ans->why), "insufficient privilege (0xd4)");
		} else if (ans->ccode == 0xc3) {
			/* what the kernel answers itself once its retries ran out */
			ans->fault = IPMI_UNREACHABLE;
			snprintf(ans->why, sizeof(ans->why), "no answer from the BMC (0xc3)");
		} else {
			snprintf(ans->why, sizeof(ans->why), "completion code 0x%02x",
				 ans->ccode);
		}
		return;
	}
	if (recv.msg.data_len - 1 > IPMI_RSP_MAX) {
		ans->fault = IPMI_FAILED;
		snprintf(ans->why, sizeof(ans->why), "%d answer bytes, more than %d",
			 recv.msg.data_len - 1, IPMI_RSP_MAX);
		return;
	}
	memcpy(ans->rsp, buf + 1, recv.msg.data_len - 1);
	ans->len = recv.msg.data_len - 1;
}

/**
 * devipmi_command() - send one raw command and wait for its answer
 * @fd: from devipmi_open()
 * @line: an ipmitool raw line, "raw NETFN CMD DATA..."
 * @timeout_ms: how long to wait for the answer
 * @ans: the answer, or why there is none
 */
void devipmi_command(int fd, const char *line, int timeout_ms, struct ipmi_answer *ans)
{
	static long next_msgid = 1;
	unsigned char netfn = 0, cmd = 0, data[IPMI_MAX_MSG_LENGTH];
	unsigned int len;
	struct ipmi_system_interface_addr bmc = {
		.addr_type = IPMI_SYSTEM_INTERFACE_ADDR_TYPE,
		.channel = IPMI_BMC_CHANNEL,
	};
	struct ipmi_req req = {
		.addr = (unsigned char *)&bmc,
		.addr_len = sizeof(bmc),
	};

	memset(ans, 0, sizeof(*ans));
	ans->when = time(NULL);
	if (!parse_raw_line(line, &netfn, &cmd, data, &len)) {
		ans->fault = IPMI_FAILED;
		snprintf(ans->why, sizeof(ans->why), "not a raw command: '%s'", line);
		return;
	}
	req.msgid = next_msgid++;
	req.msg.netfn = netfn;
	req.msg.cmd = cmd;
	req.msg.data = data;
	req.msg.data_len = len;
	if (ioctl(fd, IPMICTL_SEND_COMMAND, &req) < 0) {
		ans->fault = IPMI_FAILED;
		snprintf(ans->why, sizeof(ans->why), "send: %s", strerror(errno));
		return;
	}
	receive(fd, req.msgid, timeout_ms, ans);
	ans->when = time(NULL);
}
