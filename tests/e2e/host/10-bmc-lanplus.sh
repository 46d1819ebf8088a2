#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The host's ipmitool reaches the board's BMC over lanplus, as an operator would, and
# finds acma's BMC (product ID 0xac4a) behind it.
. "$(dirname "$0")/../../../scripts/lib/runner.sh"
lan_port=$ACMA_LAN_PORT

info=$(bmc_admin mc info 2>&1) || { echo "$info"; echo "FAIL: ipmitool mc info failed"; exit 1; }
echo "$info" | sed -n '1,3p;/Product ID/p'
echo "$info" | grep -q 'Product ID *: *44106 (0xac4a)' || { echo "FAIL: not acma's BMC"; exit 1; }

# The read-only user can read status too.
bmc_ipmitool -U "$CONFIG_BMC_USER" -P "$CONFIG_BMC_USER_PASSWORD" -L USER mc info > /dev/null 2>&1 ||
	{ echo "FAIL: the read-only user cannot read mc info"; exit 1; }
