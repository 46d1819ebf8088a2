#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# acma's OEM commands on a private BMC: answers byte by byte as firmware-glue/PROTOCOL.md
# documents them, completion codes for short, long and out-of-range requests, and who
# may send what: users read, only administrators set, and sessions without password
# authentication (cipher suite 0) or with the callback role get nothing.
. "$(dirname "$0")/lib/bmc.sh"
own_bmc_setup
own_bmc_start
eval "$("$boardgen" shell "$board_file")" || fail "boardgen shell"
n=$(printf '%02x' "$BOARD_RANKS")
last=$((BOARD_RANKS - 1))

expect "Get Domain Count" "$(oem user 0x40)" "$n 02 00 01"
set -- $(oem user 0x41 0 0)
expect "Get Domain Info rank 0: domain, dimm, ranges, range" "$1 $2 $3 $4" "00 00 01 00"
expect "Get Domain Info rank 0: base" "${*:5:8}" "00 00 00 00 01 00 00 00"
expect "Get Domain Info rank 0: DIMM name" "${*:21}" "05 44 49 4d 4d 30"
expect "Get Power-State Info on" "$(oem user 0x42 0 0)" \
	"00 00 03 46 05 00 00 00 00 00 00 00 00 00 00 02 6f 6e"
expect "Get Domain Power State, never changed" "$(oem user 0x43 "$last")" \
	"$(printf '%02x' $last) 00 00 00 00 00 ff ff ff ff"

for req in "0x40 0:0xc7" "0x41 0:0xc7" "0x41 0 0 0:0xc7" "0x41 $BOARD_RANKS 0:0xc9" \
	"0x41 0 1:0xc9" "0x42 0 2:0xc9" "0x42 0 255:0xc9" "0x43:0xc7" "0x43 255:0xc9" \
	"0x44 0:0xc7" "0x44 0 1 0:0xc7" "0x44 $BOARD_RANKS 1:0xc9" "0x44 0 2:0xc9"; do
	expect "request 0x30 ${req%%:*}" "$(oem admin ${req%%:*})" "cc=${req##*:}"
done
set -- $(bmc_admin raw 0x2c 0x02 0xdc 0x02 0 0 2>&1)
expect "DCMI power reading, mode 2" "$(echo "$*" | sed -n 's/.*rsp=\(0x..\).*/\1/p')" 0xcc

expect "user sets a rank" "$(oem user 0x44 0 1)" "cc=0xd4"
expect "callback role reads" "$(bmc_admin -L CALLBACK raw 0x30 0x40 2>&1 | sed -n 's/.*rsp=\(0x..\).*/\1/p')" 0xd4
out0=$(ipmitool -I lanplus -H 127.0.0.1 -p "$lan_port" -C 0 -U "$CONFIG_BMC_ADMIN_USER" \
	-P "not-the-password" raw 0x30 0x44 0 1 2>&1) && fail "cipher suite 0 accepted: $out0"
echo "ok: cipher suite 0 refused: $(echo "$out0" | head -n 1)"
expect "rank 0 after the refused requests" "$(oem user 0x43 0 | cut -d' ' -f2-6)" "00 00 00 00 00"

expect "admin sets rank $last off" "$(oem admin 0x44 $last 1)" "$(printf '%02x' $last) 01 00"
set -- $(oem user 0x43 $last)
expect "rank $last state and transitions" "$2 $3" "01 01"
[ "$((0x$7))" -lt 5 ] && [ "$8$9${10}" = 000000 ] || fail "seconds since change: ${*:7}"
expect "setting the same state again" "$(oem admin 0x44 $last 1)" "$(printf '%02x' $last) 01 01"
expect "rank $last back on" "$(oem admin 0x44 $last 0)" "$(printf '%02x' $last) 00 01"
expect "transitions" "$(oem user 0x43 $last | cut -d' ' -f2-3)" "00 02"
