# SPDX-License-Identifier: GPL-2.0
#
# Sourced by the host tests tests/e2e/host/4*-bmc-*.sh (it lives in a sub-folder so
# that test.sh does not run it as a test).
#
# A test that changes rank states must not touch the board's live BMC, whose ranks back
# the paused guest's memory. own_bmc_setup gives it a BMC of its own: the runner's
# bmc_start with a private output folder, private ports and private backing files
# (sparse, made with truncate) in its own private run folder under /dev/shm, all
# removed on exit by PID and by name.
#
# Also: oem USER-KIND ARGS... sends an acma OEM command (NetFn 0x30) with ipmitool raw
# and prints the answer bytes, or "cc=0xNN" when the BMC refuses it.

# shellcheck disable=SC1091
. "$(dirname "${BASH_SOURCE[0]}")/../../../../scripts/lib/runner.sh"

# Private BMCs always run the default board, whose figures the tests check byte by byte.
test_board=$top/boards/qemu-x86_64/board.hw

fail() { echo "FAIL: $*"; exit 1; }

own_bmc_cleanup() {
	stop_pid "$bmc_pid" ipmi_sim
	bmc_pid=
	case ${run_dir:-} in /dev/shm/acma-run.*) rm -rf -- "$run_dir" ;; esac
	[ -n "${own_dir:-}" ] && rm -rf "$own_dir"
}

# own_bmc_setup: private folder, backing files and an EXIT trap; does not start the BMC.
own_bmc_setup() {
	[ -f "$top/build/host/acma-bmc.so" ] || { echo "SKIP: build/host/acma-bmc.so not built"; exit 4; }
	command -v ipmi_sim > /dev/null || { echo "SKIP: ipmi_sim not installed"; exit 4; }
	own_dir=$(mktemp -d "${TMPDIR:-/tmp}/acma-bmc-test.XXXXXX")
	out=$own_dir board_file=$test_board shm_prefix=acma-bmctest-$$ bmc_pid=
	trap own_bmc_cleanup EXIT
	trap 'exit 130' INT TERM
	run_dir_make
	while read -r _ _ path _ size; do
		truncate -s "$size" "$path" || fail "cannot create $path"
	done < <("$boardgen" backing-files "$board_file" "$shm_dir" "$shm_prefix")
}

# own_bmc_start: start (or restart) the private BMC, keeping its state folder.
own_bmc_start() {
	bmc_start > /dev/null
	# ipmi_sim opens its ports before the .emu file and the plugin's post-init ran.
	for _ in $(seq 50); do
		bmc_admin mc info > /dev/null 2>&1 && return 0
		sleep 0.1
	done
	cat "$out/bmc/bmc.log"
	fail "the private BMC does not answer"
}

# own_bmc_refuses CONFIG STATE: run ipmi_sim with the plugin, CONFIG and STATE (output
# in $own_dir/sim.log); 0 if it refused to start, 1 if it started (or hung).
own_bmc_refuses() {
	local port rc
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
	bmc_binary
	timeout 10 "$ipmi_sim" -n -c "$own_dir/lan.conf" -f "$top/firmware-glue/bmc/acma-bmc.emu" \
		-s "$own_dir/st" < /dev/null > "$own_dir/sim.log" 2>&1
	rc=$?
	[ $rc != 0 ] && [ $rc != 124 ]
}

own_bmc_stop() {
	stop_pid "$bmc_pid" ipmi_sim
	bmc_pid=
}

bmc_user() { bmc_ipmitool -U "$CONFIG_BMC_USER" -P "$CONFIG_BMC_USER_PASSWORD" -L USER "$@"; }

# oem admin|user CMD [BYTES...]: answer bytes, or cc=0xNN on a completion code.
oem() {
	local who=$1 cmd=$2 ans err
	shift 2
	err=$own_dir/oem.err
	if [ "$who" = admin ]; then
		ans=$(bmc_admin raw 0x30 "$cmd" "$@" 2> "$err")
	else
		ans=$(bmc_user raw 0x30 "$cmd" "$@" 2> "$err")
	fi
	if grep -q 'rsp=0x' "$err"; then
		echo "cc=$(sed -n 's/.*rsp=\(0x[0-9a-f]*\).*/\1/p' "$err")"
	elif [ -z "$ans" ]; then
		echo "error: $(cat "$err")"
	else
		echo $ans
	fi
}

# expect WHAT GOT WANT
expect() {
	[ "$2" = "$3" ] || fail "$1: got '$2', want '$3'"
	echo "ok: $1: $2"
}
