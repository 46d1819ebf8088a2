#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# On a private BMC: powering a rank off really drops its backing file's contents (and
# only its own), shows in its memory sensor, in the SEL and in the DCMI power reading;
# powering it on again is logged too. (What goes wrong with a backing file: test 48.)
. "$(dirname "$0")/lib/bmc.sh"
own_bmc_setup
own_bmc_start

mark() { printf 'acma-%s' "$2" | dd of="$1" bs=1 seek="$3" conv=notrunc status=none; }
peek() { dd if="$1" bs=1 skip="$2" count=11 status=none | tr -d '\0'; }
f2=$shm_dir/$shm_prefix-rank2-0 f3=$shm_dir/$shm_prefix-rank3-0
end=$(($(stat -c %s "$f2") - 4096))
mark "$f2" rank2 4096; mark "$f2" rank2 "$end"; mark "$f3" rank3 4096
power() { bmc_admin dcmi power reading 2>/dev/null | sed -n 's/.*Instantaneous power reading: *\([0-9]*\) Watts.*/\1/p'; }
before=$(power)

expect "rank 2 off" "$(oem admin 0x44 2 1)" "02 01 00"
expect "rank 2 start after off" "$(peek "$f2" 4096)" ""
expect "rank 2 end after off" "$(peek "$f2" "$end")" ""
expect "rank 2 blocks after off" "$(stat -c %b "$f2")" 0
expect "rank 3 untouched" "$(peek "$f3" 4096)" "acma-rank3"
grep "rank 2: dropped $f2" "$out/bmc/bmc.log" || fail "no 'dropped' line in the BMC log"

bmc_admin sdr type Memory | grep '^Rank2 ' | tee "$own_dir/sdr"
# off on purpose is Spare (present, not in use), not the Critical Memory Device
# Disabled, which is left to the SEL's transition records (PROTOCOL.md)
grep -q 'Spare' "$own_dir/sdr" || fail "rank 2's sensor does not show off (Spare)"
grep -q 'Disabled\|Error' "$own_dir/sdr" && fail "rank 2's sensor shows a failure"
# 8 ranks at 1350 mW: 10800 mW (11 W) all on, 9450 mW (9 W) with one off.
expect "DCMI power before and after" "$before $(power)" "11 9"

expect "rank 3 off" "$(oem admin 0x44 3 1)" "03 01 00"
expect "rank 2 on" "$(oem admin 0x44 2 0)" "02 00 01"
expect "rank 3 on" "$(oem admin 0x44 3 0)" "03 00 01"

sel=$(bmc_admin sel elist 2>/dev/null)
echo "$sel"
[ "$(echo "$sel" | grep -c 'Rank2 DIMM1 | Memory Device Disabled | Asserted')" = 1 ] &&
[ "$(echo "$sel" | grep -c 'Rank2 DIMM1 | Memory Device Disabled | Deasserted')" = 1 ] &&
[ "$(echo "$sel" | grep -c 'Rank3 DIMM1 | Memory Device Disabled')" = 2 ] ||
	fail "want one off and one on record per rank in the SEL"
bmc_admin sdr type Memory | grep -q 'Spare\|Disabled' && fail "a sensor still shows off"
echo "ok: SEL and sensors"
