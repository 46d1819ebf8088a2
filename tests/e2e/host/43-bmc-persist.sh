#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# On a private BMC: rank states, transition counts and the SEL survive a BMC restart;
# the state file is replaced atomically (no temporary file left) and the rank sensors'
# SDRs are not duplicated by the restart.
. "$(dirname "$0")/lib/bmc.sh"
own_bmc_setup
own_bmc_start
state=$out/bmc/state/ranks.state

expect "rank 5 off" "$(oem admin 0x44 5 1)" "05 01 00"
expect "rank 6 off" "$(oem admin 0x44 6 1)" "06 01 00"
expect "rank 6 on" "$(oem admin 0x44 6 0)" "06 00 01"
cat "$state"
[ -e "$state.tmp" ] && fail "$state.tmp left behind"
own_bmc_stop
own_bmc_start
expect "rank 5 after restart" "$(oem user 0x43 5 | cut -d' ' -f2-3)" "01 01"
expect "rank 6 after restart" "$(oem user 0x43 6 | cut -d' ' -f2-3)" "00 02"
expect "rank 0 after restart" "$(oem user 0x43 0 | cut -d' ' -f2-3)" "00 00"
expect "SEL records after restart" "$(bmc_admin sel elist 2>/dev/null | grep -c 'Memory Device Disabled')" 3
expect "memory sensors after restart" "$(bmc_admin sdr type Memory 2>/dev/null | grep -c '^Rank')" 8
# an off rank's sensor shows Spare (present, not in use), not a failure: PROTOCOL.md
bmc_admin sdr type Memory | grep '^Rank5 ' | grep -q 'Spare' ||
	fail "rank 5's sensor does not show off (Spare) after the restart"
expect "rank 5 on" "$(oem admin 0x44 5 0)" "05 00 01"
