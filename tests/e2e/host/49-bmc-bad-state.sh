#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The rank state file is read strictly: ipmi_sim refuses to start, naming the file, the
# line and the problem, when a rank is missing (a truncated file, an empty one, a last
# line cut short), given twice, or a number is out of range (LAST-CHANGE beyond the
# 32-bit Unix time the protocol reports); a complete file starts.
. "$(dirname "$0")/lib/bmc.sh"
own_bmc_setup

# try STATE: run ipmi_sim with the plugin and STATE; 0 if it refused to start.
try() {
	own_bmc_refuses "$conf" "$1"
}
# refused WHAT STATE-TEXT LOG-PATTERN: ipmi_sim must not start, and say why.
refused() {
	printf '%b' "$2" > "$own_dir/s.state"
	try "$own_dir/s.state" || { cat "$own_dir/sim.log"; fail "$1: ipmi_sim started"; }
	grep -q "^$own_dir/s.state:$3" "$own_dir/sim.log" ||
		{ cat "$own_dir/sim.log"; fail "$1: no '$own_dir/s.state:$3' in the log"; }
	echo "ok: $1: $(grep "^$own_dir/s.state:" "$own_dir/sim.log" | head -n 1)"
}

conf=$own_dir/ranks.conf
"$boardgen" bmc "$board_file" "$shm_dir" "$shm_prefix" > "$conf"
good=""
for r in 0 1 2 3 4 5 6 7; do good="${good}rank $r on 0 0\n"; done

printf '%b' "$good" > "$own_dir/good.state"
try "$own_dir/good.state" && { cat "$own_dir/sim.log"; fail "a complete state file was refused"; }
echo "ok: a complete state file starts"

refused "truncated after rank 3" "$(printf '%b' "$good" | head -n 4 | sed 's/$/\\n/' | tr -d '\n')" \
	"4: error: .*rank 4.* missing"
refused "empty" "" "0: error: .*rank 0.* missing"
refused "last line cut short" "${good%\\n}" "8: error: .*not terminated"
refused "rank 2 twice" "rank 2 off 1 1700000000\n$good" "4: error: rank 2 given twice"
refused "LAST-CHANGE beyond 32 bits" "${good/rank 5 on 0 0/rank 5 off 1 18446744073709551615}" \
	"6: error: "
refused "LAST-CHANGE of a rank that never changed" "${good/rank 6 on 0 0/rank 6 on 0 1700000000}" \
	"7: error: "
