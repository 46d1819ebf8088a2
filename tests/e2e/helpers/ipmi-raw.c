// SPDX-License-Identifier: GPL-2.0
/*
 * ipmi-raw - send one IPMI request through the kernel's /dev/ipmi0 and print the answer.
 *
 *   ipmi-raw [-d DEV] [-t MS] NETFN CMD [DATA...]
 *
 * Bytes are hexadecimal (0x optional). The answer is printed as hexadecimal bytes on
 * one line, the completion code first, like `ipmitool raw` prints it. The guest has no
 * ipmitool: this is the guest-side check that the BMC answers through the system
 * interface (KCS) the way firmware and the kernel's IPMI drivers reach it.
 *
 * Exit status: 0 answer received, 1 error (open, send or receive failed, timeout),
 * 2 usage.
 */
#include <errno.h>
#include <fcntl.h>
#include <linux/ipmi.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

static int parse_byte(const char *s, unsigned char *out)
{
	char *end;
	unsigned long v;

	errno = 0;
	v = strtoul(s, &end, 16);
	if (errno || end == s || *end || v > 0xff)
		return -1;
	*out = (unsigned char)v;
	return 0;
}

static void usage(void)
{
	fprintf(stderr, "usage: ipmi-raw [-d DEV] [-t MS] NETFN CMD [DATA...]\n");
	exit(2);
}

int main(int argc, char **argv)
{
	const char *dev = "/dev/ipmi0";
	int timeout_ms = 5000;
	unsigned char netfn, cmd, data[IPMI_MAX_MSG_LENGTH], answer[IPMI_MAX_MSG_LENGTH];
	struct ipmi_system_interface_addr bmc = {
		.addr_type = IPMI_SYSTEM_INTERFACE_ADDR_TYPE,
		.channel = IPMI_BMC_CHANNEL,
	};
	struct ipmi_req req = { 0 };
	struct ipmi_addr from;
	struct ipmi_recv recv = { 0 };
	struct pollfd pfd;
	int opt, fd, n, i;

	while ((opt = getopt(argc, argv, "d:t:")) != -1) {
		switch (opt) {
		case 'd':
			dev = optarg;
			break;
		case 't':
			timeout_ms = atoi(optarg);
			break;
		default:
			usage();
		}
	}
	if (argc - optind < 2 || argc - optind - 2 > IPMI_MAX_MSG_LENGTH)
		usage();
	if (parse_byte(argv[optind], &netfn) || parse_byte(argv[optind + 1], &cmd))
		usage();
	n = argc - optind - 2;
	for (i = 0; i < n; i++)
		if (parse_byte(argv[optind + 2 + i], &data[i]))
			usage();

	fd = open(dev, O_RDWR);
	if (fd < 0) {
		fprintf(stderr, "ipmi-raw: %s: %s\n", dev, strerror(errno));
		return 1;
	}
	req.addr = (unsigned char *)&bmc;
	req.addr_len = sizeof(bmc);
	req.msgid = 1;
	req.msg.netfn = netfn;
	req.msg.cmd = cmd;
	req.msg.data = data;
	req.msg.data_len = n;
	if (ioctl(fd, IPMICTL_SEND_COMMAND, &req) < 0) {
		fprintf(stderr, "ipmi-raw: send: %s\n", strerror(errno));
		return 1;
	}
	pfd.fd = fd;
	pfd.events = POLLIN;
	if (poll(&pfd, 1, timeout_ms) != 1) {
		fprintf(stderr, "ipmi-raw: no answer within %d ms\n", timeout_ms);
		return 1;
	}
	recv.addr = (unsigned char *)&from;
	recv.addr_len = sizeof(from);
	recv.msg.data = answer;
	recv.msg.data_len = sizeof(answer);
	if (ioctl(fd, IPMICTL_RECEIVE_MSG_TRUNC, &recv) < 0) {
		fprintf(stderr, "ipmi-raw: receive: %s\n", strerror(errno));
		return 1;
	}
	for (i = 0; i < recv.msg.data_len; i++)
		printf("%s%02x", i ? " " : "", answer[i]);
	printf("\n");
	close(fd);
	return 0;
}
