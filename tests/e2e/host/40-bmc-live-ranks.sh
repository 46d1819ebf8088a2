#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Read-only, against the board's live BMC while the guest is paused: acma's plugin knows
# every rank of the board (OEM Get Domain Count), all ranks are on with their memory
# sensor not disabled, and the DCMI power reading is the all-on DRAM power. Uses the
# read-only account: reading needs user privilege only.
. "$(dirname "$0")/lib/bmc.sh"
lan_port=$ACMA_LAN_PORT
own_dir=$(mktemp -d) && trap 'rm -rf "$own_dir"' EXIT
eval "$("$boardgen" shell "$ACMA_BOARD_FILE")" || fail "boardgen shell"

set -- $(oem user 0x40)
expect "domain count" "$1" "$(printf '%02x' "$BOARD_RANKS")"
on=$3	# index of the on state
for r in $(seq 0 $((BOARD_RANKS - 1))); do
	set -- $(oem user 0x43 "$r")
	[ "$1" = "$(printf '%02x' "$r")" ] || fail "rank $r: Get Domain Power State answered '$*'"
	[ "$2" = "$on" ] || fail "rank $r is in state $2, not on ($on)"
done
echo "ok: all $BOARD_RANKS ranks on"

sensors=$(bmc_user sdr type Memory 2>/dev/null)
echo "$sensors"
[ "$(echo "$sensors" | grep -c '^Rank')" = "$BOARD_RANKS" ] || fail "want $BOARD_RANKS memory sensors"
# off is Spare, a failure Configuration Error (PROTOCOL.md); neither while all are on
! echo "$sensors" | grep -q 'Spare\|Disabled\|Error' || fail "a memory sensor shows a rank off or failed"

on_mw=$("$boardgen" bmc "$ACMA_BOARD_FILE" /dev/shm x |
	sed -n 's/^rank .* on=\([0-9]*\)mW.*/\1/p' | awk '{ s += $1 } END { print s }')
reading=$(bmc_user dcmi power reading 2>/dev/null)
echo "$reading" | sed -n '/Instantaneous/p'
watts=$(echo "$reading" | sed -n 's/.*Instantaneous power reading: *\([0-9]*\) Watts.*/\1/p')
expect "DCMI DRAM power, all ranks on ($on_mw mW)" "$watts" $(((on_mw + 500) / 1000))
