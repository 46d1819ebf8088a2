#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# A rank acma powered off on purpose is not an alarm; a rank that failed is. On a
# private BMC, rank 2 is powered off (its contents dropped) and rank 4's power-off fails
# (its backing file is gone, so the BMC cannot drop its contents). FreeIPMI's
# ipmi-sensors, what a fleet's exporter alerts on, must read rank 2 Nominal and rank 4
# Critical; ipmitool sdr type Memory must still say rank 2 is off (Spare: present, not
# in use) and rank 4 failed (Configuration Error). Once rank 4's file is back and it
# powers off, it reads Nominal again.
. "$(dirname "$0")/lib/bmc.sh"
own_bmc_setup
own_bmc_start
command -v ipmi-sensors > /dev/null || { echo "SKIP: FreeIPMI (ipmi-sensors) not installed"; exit 4; }

# state: "RankN=STATE ..." for ranks 0, 2 and 4 as FreeIPMI interprets their sensors
state() {
	timeout 30 ipmi-sensors -h "127.0.0.1:$lan_port" -u "$CONFIG_BMC_USER" \
		-p "$CONFIG_BMC_USER_PASSWORD" -l USER --driver-type=LAN_2_0 --config-file=/dev/null \
		--quiet-cache --sdr-cache-directory="$own_dir" --sensor-types=Memory \
		--output-sensor-state --no-header-output --comma-separated-output 2>&1 |
		tee -a "$own_dir/sensors" | awk -F, '$2 ~ /^Rank[024] / { split($2, n, " "); printf "%s%s=%s", s, n[1], $4; s = " " }'
}
# sdr N: rank N's line of ipmitool sdr type Memory
sdr() { bmc_admin sdr type Memory 2>/dev/null | grep "^Rank$1 "; }

expect "rank 2 off" "$(oem admin 0x44 2 1)" "02 01 00"
rm -f "$shm_dir/$shm_prefix-rank4-0"
expect "rank 4 off without its backing file" "$(oem admin 0x44 4 1)" "cc=0xff"

got=$(state)
cat "$own_dir/sensors"
sdr 2; sdr 4; sdr 0
expect "FreeIPMI: rank 0 on, rank 2 off by choice, rank 4 failed" "$got" \
	"Rank0=Nominal Rank2=Nominal Rank4=Critical"
sdr 2 | grep -q 'Spare' || fail "ipmitool sdr type Memory does not show rank 2 off (Spare)"
sdr 4 | grep -q 'Configuration Error' || fail "ipmitool does not show rank 4's failure"
sdr 0 | grep -q 'Spare\|Error\|Disabled' && fail "ipmitool shows rank 0, which is on, off or failed"

truncate -s "$(stat -c %s "$shm_dir/$shm_prefix-rank5-0")" "$shm_dir/$shm_prefix-rank4-0"
expect "rank 4 off with its backing file back" "$(oem admin 0x44 4 1)" "04 01 00"
expect "FreeIPMI once rank 4 is off" "$(state)" "Rank0=Nominal Rank2=Nominal Rank4=Nominal"
sdr 4 | grep -q 'Configuration Error' && fail "rank 4 still shows its failure"
sdr 4 | grep -q 'Spare' || fail "rank 4 does not show off"
echo "ok: off by choice is Nominal, a failed rank Critical"
