#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# FreeIPMI, as a fleet's monitoring uses it (prometheus-ipmi-exporter runs ipmi-sensors
# and ipmi-dcmi), reaches a private BMC over RMCP+ without any workaround flag: the
# read-only account at user privilege and the administrator at admin privilege read
# the rank sensors and the DCMI power statistics. FreeIPMI opens its sessions asking
# for "the highest privilege matching the proposed algorithms" (0); the BMC must
# answer a privilege the session can reach, not echo 0. The session is still held to
# its account: the read-only account asking for admin privilege gets nothing.
. "$(dirname "$0")/lib/bmc.sh"
own_bmc_setup
own_bmc_start
command -v ipmi-sensors > /dev/null || { echo "SKIP: FreeIPMI (ipmi-sensors) not installed"; exit 4; }

admin=$CONFIG_BMC_ADMIN_USER admin_pw=$CONFIG_BMC_ADMIN_PASSWORD
mon=$CONFIG_BMC_USER mon_pw=$CONFIG_BMC_USER_PASSWORD
nranks=$("$boardgen" bmc "$board_file" /dev/shm x | grep -c '^rank ')

# fipmi TOOL USER PASSWORD LEVEL ARGS...: a FreeIPMI tool over RMCP+, no workaround flags,
# no FreeIPMI configuration file, bounded.
fipmi() {
	local tool=$1 u=$2 p=$3 l=$4
	shift 4
	timeout 30 "$tool" -h "127.0.0.1:$lan_port" -u "$u" -p "$p" -l "$l" \
		--driver-type=LAN_2_0 --session-timeout=5000 --retransmission-timeout=1000 \
		--config-file=/dev/null "$@" 2>&1
}

for who in "$mon $mon_pw USER" "$admin $admin_pw ADMIN"; do
	set -- $who
	out=$(fipmi ipmi-sensors "$1" "$2" "$3" --sensor-types=Memory --no-header-output \
		--quiet-cache --sdr-cache-directory="$own_dir")
	echo "ipmi-sensors as $1 at $3:"; echo "$out"
	[ "$(echo "$out" | grep -c '| Rank[0-9]')" = "$nranks" ] ||
		fail "ipmi-sensors as $1 ($3) does not list the $nranks rank sensors"
	out=$(fipmi ipmi-dcmi "$1" "$2" "$3" --get-system-power-statistics)
	echo "ipmi-dcmi as $1 at $3:"; echo "$out" | sed -n '/Current Power/p'
	# 8 ranks at 1350 mW, all on: 11 W
	echo "$out" | grep -q 'Current Power *: 11 Watts' ||
		fail "ipmi-dcmi as $1 ($3): no DRAM power reading of 11 W"
	echo "ok: FreeIPMI as $1 at $3"
done

# The privilege the session reaches is still the account's own.
out=$(fipmi ipmi-sensors "$mon" "$mon_pw" ADMIN --sensor-types=Memory --quiet-cache \
	--sdr-cache-directory="$own_dir")
echo "ipmi-sensors as $mon at ADMIN: $out" | head -n 3
echo "$out" | grep -q '| Rank[0-9]' && fail "the read-only account got a session at admin privilege"
echo "ok: the read-only account cannot get admin privilege through FreeIPMI"
