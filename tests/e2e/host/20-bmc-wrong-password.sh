#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The BMC refuses a wrong password and an anonymous login over lanplus, while the same
# command with the right password is answered (so the refusals are about the login).
. "$(dirname "$0")/../../../scripts/lib/runner.sh"
lan_port=$ACMA_LAN_PORT

bmc_admin mc info > /dev/null 2>&1 || { echo "FAIL: the right password is refused too"; exit 1; }
if out=$(bmc_ipmitool -U "$CONFIG_BMC_ADMIN_USER" -P "not-$CONFIG_BMC_ADMIN_PASSWORD" mc info 2>&1); then
	echo "$out"
	echo "FAIL: a wrong password was accepted"
	exit 1
fi
echo "wrong password: $(echo "$out" | head -n 1)"
if out=$(bmc_ipmitool -U "" -P "" mc info 2>&1); then
	echo "$out"
	echo "FAIL: an anonymous session was accepted"
	exit 1
fi
echo "anonymous: $(echo "$out" | head -n 1)"
