#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# ipmi_sim does not start when acma's plugin finds an invalid line in its configuration
# or state file; the error names FILE:LINE.
. "$(dirname "$0")/lib/bmc.sh"
own_bmc_setup

# try CONFIG STATE: run ipmi_sim with the plugin; print its output; 0 if it failed.
try() {
	own_bmc_refuses "$1" "$2"
	local rc=$?
	cat "$own_dir/sim.log"
	return $rc
}

conf=$own_dir/ranks.conf
"$boardgen" bmc "$board_file" /dev/shm "$shm_prefix" > "$conf"
sed -i '2s/^board/bored/; 6s/^rank 1 dimm=/rank 1 dim=/' "$conf"
try "$conf" "$own_dir/none.state" || fail "ipmi_sim started with a broken configuration"
grep -q "^$conf:2: error: unknown keyword 'bored'" "$own_dir/sim.log" || fail "no FILE:LINE for line 2"
grep -q "^$conf:6: error: .*'dim'" "$own_dir/sim.log" || fail "no FILE:LINE for line 6"

"$boardgen" bmc "$board_file" /dev/shm "$shm_prefix" > "$conf"
printf 'rank 0 on 0 0\nrank 1 sleepy 0 0\n' > "$own_dir/bad.state"
try "$conf" "$own_dir/bad.state" || fail "ipmi_sim started with a broken state file"
grep -q "^$own_dir/bad.state:2: error:" "$own_dir/sim.log" || fail "no FILE:LINE for the state file"
echo "ok: broken configuration and state file refused"
