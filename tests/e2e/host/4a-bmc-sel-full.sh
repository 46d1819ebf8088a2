#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# On a private BMC whose SEL is full: a rank transition still happens, the SEL shows its
# overflow flag (ipmitool sel info), and every transition, with who asked for it (the
# LAN user, or the system interface), is in the BMC's durable transition log
# (state folder, transitions.log), which survives a BMC restart.
. "$(dirname "$0")/lib/bmc.sh"
own_bmc_setup
own_bmc_start
audit=$out/bmc/state/transitions.log

# fill the SEL with Add SEL Entry, in one session
used=$(bmc_admin sel info 2>/dev/null | sed -n 's/^Entries *: *//p')
for i in $(seq $((1000 - used))); do
	echo "raw 0x0a 0x44 0 0 0x02 0 0 0 0 0x20 0 0x04 0x0c 0x87 0x6f 0x00 0xff 0xff"
done > "$own_dir/fill"
bmc_admin exec "$own_dir/fill" > /dev/null 2>&1
info=$(bmc_admin sel info 2>/dev/null)
echo "$info" | grep -E 'Entries|Percent|Overflow'
expect "SEL full" "$(echo "$info" | sed -n 's/^Percent Used *: *//p')" "100%"
expect "overflow before" "$(echo "$info" | sed -n 's/^Overflow *: *//p')" "false"

expect "admin sets rank 3 off over LAN" "$(oem admin 0x44 3 1)" "03 01 00"
expect "overflow after" "$(bmc_admin sel info 2>/dev/null | sed -n 's/^Overflow *: *//p')" "true"

# rank 3 back on through the system interface (QEMU's VM codec): seq 02, NetFn 0x30,
# cmd 0x44, rank 3, state 0, checksum, end of message
# (the connection stays open until the answer is in, as QEMU's does)
ans=$( { printf '\002\300\104\003\000\367\240'; sleep 1; } |
	timeout 5 socat -t 1 - UNIX-CONNECT:"$kcs_sock" |
	od -An -tx1 | tr -d '\n')
case $ans in *" 02 c4 44 00 03 00 01 "*) ;; *) fail "system interface: rank 3 on answered '$ans'" ;; esac
echo "ok: rank 3 on through the system interface"

[ -f "$audit" ] || fail "no transition log $audit"
cat "$audit"
grep -q "rank 3 (DIMM1): on -> off by user '$CONFIG_BMC_ADMIN_USER' (id 2) over LAN channel 1.*SEL full" \
	"$audit" || fail "the LAN transition is not in the transition log with its user"
grep -q "rank 3 (DIMM1): off -> on by the system interface (channel 15).*SEL full" "$audit" ||
	fail "the system-interface transition is not in the transition log"
own_bmc_stop
own_bmc_start
expect "transition log lines after a restart" "$(grep -c ' -> ' "$audit")" 2
