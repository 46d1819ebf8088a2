#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# ipmi_sim does not start when acma's plugin finds an invalid line in its configuration
# or state file; the error names FILE:LINE.
. "$(dirname "$0")/lib/bmc.sh"
own_bmc_setup

# try CONFIG STATE: run ipmi_sim with the plugin; print its output; 0 if it failed.
try() {
	port=$(pick_port)
	cat > "$own_dir/lan.conf" <<-LAN
	name "acma-bmc"
	set_working_mc 0x20
	  startlan 1
	    addr 127.0.0.1 $port
	    priv_limit admin
	    allowed_auths_admin md5
	  endlan
	loadlib "$top/build/host/acma-bmc.so" "config=$1 state=$2"
	LAN
	mkdir -p "$own_dir/st"
	timeout 10 ipmi_sim -n -c "$own_dir/lan.conf" -f "$top/firmware-glue/bmc/acma-bmc.emu" \
		-s "$own_dir/st" < /dev/null > "$own_dir/sim.log" 2>&1
	rc=$?
	cat "$own_dir/sim.log"
	[ $rc != 0 ] && [ $rc != 124 ]
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
