/* SPDX-License-Identifier: GPL-2.0 */
/*
 * devipmi.h - in-band: raw commands to the machine's own BMC through the
 * kernel's IPMI device (/dev/ipmi0), no ipmitool
 */
#ifndef ACMA_RANKS_DEVIPMI_H
#define ACMA_RANKS_DEVIPMI_H

#include "ipmi.h"

int devipmi_open(const char *dev, struct ipmi_answer *fail);
void devipmi_command(int fd, const char *line, int timeout_ms, struct ipmi_answer *ans);

#endif
