#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The BMC says who made it: ipmitool mc info on a private BMC shows the manufacturer
# and product IDs of the board file's bmc-id line, and without that line boardgen's
# defaults, IANA enterprise number 32473 (reserved for documentation and examples,
# RFC 5612) and acma's product ID 0xac4a; never manufacturer 0 ("Reserved").
. "$(dirname "$0")/lib/bmc.sh"
own_bmc_setup

# ids: "MANUFACTURER PRODUCT" as ipmitool mc info shows them
ids() {
	local info
	info=$(bmc_admin mc info 2>&1) || { echo "$info"; fail "ipmitool mc info failed"; }
	echo "$info" | sed -n '/Manufacturer\|Product ID/p' >&2
	echo "$(echo "$info" | sed -n 's/^Manufacturer ID *: *//p') $(echo "$info" |
		sed -n 's/^Product ID *: *[0-9]* (\(0x[0-9a-f]*\))$/\1/p')"
}

grep -q '^bmc-id' "$board_file" && fail "the default board has a bmc-id line: not the default"
own_bmc_start
expect "default board: manufacturer and product" "$(ids)" "32473 0xac4a"
own_bmc_stop

# The same board with its own IDs (boardgen wants the board in a folder of its name).
mkdir -p "$own_dir/board/qemu-x86_64"
board_file=$own_dir/board/qemu-x86_64/board.hw
{ cat "$test_board"; echo "bmc-id 0x0a5c3 0x1234"; } > "$board_file"
own_bmc_start
expect "board with 'bmc-id 0x0a5c3 0x1234': manufacturer and product" "$(ids)" "42435 0x1234"
