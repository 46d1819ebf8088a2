# SPDX-License-Identifier: GPL-2.0
#
# The board runner, sourced by scripts/run-board.sh and scripts/test.sh.
#
# It boots one board: OpenIPMI's ipmi_sim as the BMC (reachable by the guest over KCS
# through QEMU's ipmi-bmc-extern, and by the host's ipmitool over lanplus), then QEMU
# with the board's memory laid out by boardgen, each rank backed by its own file in the
# run's private folder under /dev/shm ($run_dir); an arm64 board (machine virt) boots through U-Boot, which adds the board's
# DRAM power domains to the devicetree (qemu_machine_args). A VM board (BOARD_FIRMWARE
# none) has no BMC: its memory is anonymous host RAM, with the balloon boardgen adds;
# with BOARD_SCRATCH_DISK_MB > 0 it also gets a scratch virtio disk, a sparse file
# $out/scratch.img. Every process it starts is stopped and the private folder (and
# the scratch disk) is removed when the calling script exits, whatever
# the reason (runner_cleanup).

top=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
boardgen=$top/build/host/boardgen
# The board configuration (BMC accounts, timeouts, accelerator).
# shellcheck disable=SC1091
cfg=${KCONFIG_CONFIG:-.config}
case $cfg in /*) ;; *) cfg=$top/$cfg ;; esac
[ -f "$cfg" ] && . "$cfg"

# The board's compiled ACPI tables (MPST, SSDT) for QEMU's -acpitable: the scripts add
# one per --acpitable option (make passes them for x86 boards).
acpi_tables=

say() { printf '%s\n' "$*"; }
step() { printf '  %-8s %s\n' "$1" "$2"; }
die() { printf 'error: %s\n' "$*" >&2; exit 1; }

# runner_args OPTION...: the scripts' common options, into $mode, $board, $kernel,
# $initrd, $outdir and $acpi_tables; --also BOARD:GLOBS (test.sh, bench.sh: another
# board to boot after this one) into the array $also.
also=()
runner_args() {
	while [ $# -gt 0 ]; do
		case $1 in
		--also) also+=("$2") ;;
		--mode) mode=$2 ;;
		--board) board=$2 ;;
		--kernel) kernel=$2 ;;
		--initrd) initrd=$2 ;;
		--out) outdir=$2 ;;
		--acpitable) acpi_tables="${acpi_tables:-} $2" ;;
		*) die "$(basename "$0"): unknown option $1" ;;
		esac
		shift 2
	done
}

# runner_init OUT BOARD-FILE: the run's folder, the board's facts and the .config.
runner_init() {
	out=$1 board_file=$2
	# one run per folder at a time: a second make run/test waits for the first
	mkdir -p "$(dirname "$out")"
	exec 7> "$out.lock"
	if ! flock -n 7; then
		step WAIT "another run uses $out"
		flock 7
	fi
	rm -rf "$out"
	mkdir -p "$out"
	out=$(cd "$out" && pwd)
	[ -x "$boardgen" ] || die "$boardgen is missing: run make"
	eval "$("$boardgen" shell "$board_file")" || exit 1
	shm_prefix=acma-$$
	qemu_pid= bmc_pid= agent_pid=
	trap runner_cleanup EXIT
	run_dir_make
	trap 'say "interrupted"; exit 130' INT TERM
}

# port_listening PORT tcp|udp: is something bound to 127.0.0.1:PORT or *:PORT?
port_listening() {
	hex=$(printf '%04X' "$1")
	awk -v p=":$hex" -v proto="$2" 'NR > 1 && substr($2, length($2) - 4) == p &&
		(proto == "udp" || $4 == "0A") { found = 1 } END { exit !found }' \
		/proc/net/"$2" /proc/net/"$2"6 2>/dev/null
}

# pick_port: a port free for both TCP and UDP, spread so that parallel runs differ.
pick_port() {
	while :; do
		p=$((20000 + ($(od -An -N2 -tu2 /dev/urandom) % 40000)))
		port_listening $p tcp || port_listening $p udp || { echo $p; return; }
	done
}

# stop_pid PID NAME: TERM, then KILL if it lingers.
stop_pid() {
	[ -n "$1" ] && kill -0 "$1" 2>/dev/null || return 0
	kill -TERM "$1" 2>/dev/null || true
	# a process a test stopped (SIGSTOP: a hung BMC) only sees SIGTERM once continued
	kill -CONT "$1" 2>/dev/null || true
	for _ in $(seq 50); do
		kill -0 "$1" 2>/dev/null || { wait "$1" 2>/dev/null || true; return 0; }
		sleep 0.1
	done
	say "  $2 (pid $1) did not stop on SIGTERM; killing it"
	kill -KILL "$1" 2>/dev/null || true
	wait "$1" 2>/dev/null || true
}

# run_dir_make: the run's private folder, $run_dir (mkdtemp: mode 0700, a name nobody
# can guess), on tmpfs; it holds the BMC's system interface socket and the ranks'
# backing files ($shm_dir, the same folder); runner_cleanup removes it.
run_dir_make() {
	run_dir=$(mktemp -d /dev/shm/acma-run.XXXXXXXX) || die "cannot make a private folder in /dev/shm"
	shm_dir=$run_dir
}

runner_cleanup() {
	stop_pid "$agent_pid" host-agent
	stop_pid "$qemu_pid" qemu
	stop_pid "$bmc_pid" ipmi_sim
	# a BMC the host agent started again after a test killed this one
	if [ -n "${out:-}" ] && [ -s "$out/bmc/restarted.pid" ]; then
		restarted=$(cat "$out/bmc/restarted.pid")
		[ "$(cat /proc/"$restarted"/comm 2>/dev/null)" != ipmi_sim ] ||
			stop_pid "$restarted" ipmi_sim
		rm -f "$out/bmc/restarted.pid"
	fi
	qemu_pid= bmc_pid= agent_pid=
	if [ -n "${out:-}" ]; then
		rm -f "$out/scratch.img"
	fi
	case ${run_dir:-} in /dev/shm/acma-run.*) rm -rf -- "$run_dir" ;; esac
}

# board_has_bmc: does the board have a BMC? Not a VM board (firmware none).
board_has_bmc() {
	[ "${BOARD_FIRMWARE:-}" != none ]
}

bmc_ipmitool() {
	ipmitool -I lanplus -H 127.0.0.1 -p "$lan_port" -C 3 "$@"
}
bmc_admin() { bmc_ipmitool -U "$CONFIG_BMC_ADMIN_USER" -P "$CONFIG_BMC_ADMIN_PASSWORD" "$@"; }

# bmc_binary: the BMC's ipmi_sim into $ipmi_sim: the one scripts/ipmi-sim.sh builds
# once per machine from Debian's source with CVE-2024-42934 fixed (Debian 12's dies on
# one LAN packet); it finds its own libraries through its RUNPATH. ACMA_IPMI_SIM=PATH
# runs another one (e.g. Debian's /usr/bin/ipmi_sim), as it is. When the build fails,
# the run goes on with Debian's ipmi_sim, loudly, and $bmc_unpatched is 1 (the CVE's
# test skips). The choice is made once and exported (ACMA_IPMI_SIM_BIN,
# ACMA_IPMI_SIM_UNPATCHED) for the scripts this one starts.
bmc_binary() {
	if [ -n "${ACMA_IPMI_SIM:-}" ]; then
		ipmi_sim=$ACMA_IPMI_SIM bmc_unpatched=0
		return 0
	fi
	if [ -n "${ACMA_IPMI_SIM_BIN:-}" ]; then
		ipmi_sim=$ACMA_IPMI_SIM_BIN bmc_unpatched=${ACMA_IPMI_SIM_UNPATCHED:-0}
		return 0
	fi
	bmc_unpatched=0
	if ! ipmi_sim=$("$top/scripts/ipmi-sim.sh" | tail -n 1) || [ ! -x "$ipmi_sim" ]; then
		ipmi_sim=$(command -v ipmi_sim) || die "scripts/ipmi-sim.sh failed and ipmi_sim is not installed"
		bmc_unpatched=1
		printf 'WARNING: %s\n' "scripts/ipmi-sim.sh could not build ipmi_sim (see above): the BMC is Debian's $ipmi_sim, which has CVE-2024-42934" >&2
	fi
	export ACMA_IPMI_SIM_BIN=$ipmi_sim ACMA_IPMI_SIM_UNPATCHED=$bmc_unpatched
}

# bmc_start: write the BMC's configuration into $out/bmc and start ipmi_sim with acma's
# plugin, which gets the board's ranks from boardgen (their backing files need not exist
# yet) and keeps their power states in $out/bmc/state/ranks.state. A VM board has no
# BMC: nothing is started, $lan_port, $kcs_sock and $bmc_pid stay empty. A test may add
# lan.conf user lines (accounts of its private BMC) in $bmc_extra_users, and change the
# plugin's ranks.conf with the sed script $bmc_ranks_sed.
#
# The system interface (KCS, QEMU's ipmi-bmc-extern) is the UNIX socket $kcs_sock in
# the private $run_dir: ipmi_sim 2.0.33 can only listen on TCP for it (so lan.conf asks
# for an ephemeral port, 0), and the plugin puts the socket in the place of that
# listener before ipmi_sim accepts anything (kcs=, firmware-glue/bmc/sysif.c).
bmc_start() {
	lan_port= kcs_sock= bmc_pid=
	if ! board_has_bmc; then
		step BMC "none (firmware none: a VM guest)"
		return 0
	fi
	lan_port=$(pick_port)
	kcs_sock=$run_dir/kcs.sock
	rm -f "$kcs_sock"
	mkdir -p "$out/bmc/state"
	[ -f "$top/build/host/acma-bmc.so" ] || die "$top/build/host/acma-bmc.so is missing: run make"
	"$boardgen" bmc "$board_file" "$shm_dir" "$shm_prefix" > "$out/bmc/ranks.conf" || exit 1
	[ -z "${bmc_ranks_sed:-}" ] || sed -i -e "$bmc_ranks_sed" "$out/bmc/ranks.conf"
	cat > "$out/bmc/lan.conf" <<-LAN
	# Generated by scripts/lib/runner.sh for one run; see ipmi_lan(5).
	name "acma-bmc"
	set_working_mc 0x20
	  startlan 1
	    addr 127.0.0.1 $lan_port
	    priv_limit admin
	    allowed_auths_callback md5
	    allowed_auths_user md5
	    allowed_auths_operator md5
	    allowed_auths_admin md5
	    guid a5c3a0000000000000000000000000ac
	  endlan
	  serial kcs 127.0.0.1 0 codec VM
	# User 1 is the anonymous user: disabled.
	user 1 false "" "" user 1 md5
	user 2 true "$CONFIG_BMC_ADMIN_USER" "$CONFIG_BMC_ADMIN_PASSWORD" admin 10 md5
	user 3 true "$CONFIG_BMC_USER" "$CONFIG_BMC_USER_PASSWORD" user 10 md5
	${bmc_extra_users:-}
	# acma's DRAM power domains (firmware-glue/PROTOCOL.md).
	loadlib "$top/build/host/acma-bmc.so" "config=$out/bmc/ranks.conf state=$out/bmc/state/ranks.state kcs=$kcs_sock"
	LAN
	bmc_binary
	# the command line, once, for the host agent to start the BMC again ("bmc restart")
	printf '#!/bin/sh\n# Generated by scripts/lib/runner.sh: start this run'"'"'s BMC.\nrm -f %s\nexec %s -n -c %s -f %s -s %s >> %s 2>&1 < /dev/null\n' \
		"$(shell_quote "$kcs_sock")" "$(shell_quote "$ipmi_sim")" "$(shell_quote "$out/bmc/lan.conf")" \
		"$(shell_quote "$top/firmware-glue/bmc/acma-bmc.emu")" "$(shell_quote "$out/bmc/state")" \
		"$(shell_quote "$out/bmc/bmc.log")" > "$out/bmc/launch"
	chmod 700 "$out/bmc/launch"
	: > "$out/bmc/bmc.log"
	"$out/bmc/launch" &
	bmc_pid=$!
	rm -f "$out/bmc/restarted.pid"
	bmc_wait_ready "$bmc_pid" "$kcs_sock" "$lan_port" "$out/bmc/bmc.log" || exit 1
	step BMC "ipmi_sim pid $bmc_pid: lanplus 127.0.0.1:$lan_port, KCS $kcs_sock"
}

# shell_quote STRING: STRING quoted for sh, in single quotes.
shell_quote() {
	printf "'%s'" "$(printf '%s' "$1" | sed "s/'/'\\\\''/g")"
}

# bmc_wait_ready PID KCS_SOCK LAN_PORT LOG: wait (10 s at most) until the BMC PID
# listens on its system interface and its LAN port; 1, saying why, if it does not.
bmc_wait_ready() {
	for _ in $(seq 100); do
		[ -S "$2" ] && port_listening "$3" udp && return 0
		if ! kill -0 "$1" 2>/dev/null; then
			printf 'error: ipmi_sim exited: %s\n' "$(tail -n 5 "$4")" >&2
			return 1
		fi
		sleep 0.1
	done
	printf 'error: ipmi_sim did not open its system interface (see %s)\n' "$4" >&2
	return 1
}

qemu_base_args() {
	set -- -machine "$BOARD_QEMU_MACHINE" -smp "$BOARD_CPUS" -nodefaults -display none \
		-no-reboot
	printf '%s\n' "$@"
}

# qemu_binary: the board's QEMU into $qemu: Debian's for x86_64; for arm64 the
# qemu-system-aarch64 with a PCI KCS (pci-ipmi-kcs) that scripts/qemu-aarch64.sh builds
# once per machine (Debian's has no IPMI devices).
qemu_binary() {
	case $BOARD_ARCH in
	arm64)
		qemu=$("$top/scripts/qemu-aarch64.sh" | tail -n 1) && [ -x "$qemu" ] ||
			die "scripts/qemu-aarch64.sh gave no qemu-system-aarch64"
		;;
	*) qemu=qemu-system-$BOARD_ARCH ;;
	esac
}

# board_kernel BOARD-FILE: the kernel image make builds for the board's architecture.
board_kernel() {
	case $("$boardgen" shell "$1" | sed -n "s/^BOARD_ARCH='\(.*\)'$/\1/p") in
	arm64) echo "$top/build/arm64${2:-}/linux/arch/arm64/boot/Image" ;;
	*) echo "$top/build/x86_64${2:-}/linux/arch/x86/boot/bzImage" ;;
	esac
}

# host_arch: the host's architecture, named as boards name theirs.
host_arch() {
	case $(uname -m) in
	aarch64) echo arm64 ;;
	*) uname -m ;;
	esac
}

# accel_pick KERNEL INITRD: the accelerator to use, tried once per machine for auto.
accel_pick() {
	if [ "$BOARD_ARCH" != "$(host_arch)" ]; then
		accel=tcg
		step ACCEL "tcg: an $BOARD_ARCH guest on an $(uname -m) host (no KVM probe)"
		return
	fi
	if [ "${CONFIG_ACCEL_TCG:-}" = y ]; then accel=tcg; return; fi
	if [ "${CONFIG_ACCEL_KVM:-}" = y ]; then accel=kvm; return; fi
	accel=tcg
	[ -w /dev/kvm ] || return 0
	cache=$top/build/accel
	if [ -f "$cache" ]; then accel=$(cat "$cache"); return; fi
	step ACCEL "trying a short KVM boot (once per machine; result in build/accel)"
	probe=$out/kvm-probe.log
	timeout 20 "$qemu" $(qemu_base_args) -accel kvm -cpu max \
		-m 256M -kernel "$1" -initrd "$2" -serial "file:$probe" \
		-append "console=ttyS0 nokaslr panic=-1 acma.mode=probe" >/dev/null 2>&1 || true
	if grep -q acma-probe-ok "$probe" 2>/dev/null; then accel=kvm; fi
	echo $accel > "$cache"
}

# uboot_env_image ARGS: U-Boot's environment for this run, $out/uboot-env.img: the
# board's (boardgen uboot-env, the kernel's fixed arguments and the commands that add
# the DRAM power node) and the run's kernel ARGS as acma_args, which its bootcmd
# appends. mkenvimage makes the image U-Boot's qemu_arm64 build reads (its
# CONFIG_ENV_SIZE, 0x40000, at the start of the second flash), padded to the flash's
# 64 MiB.
uboot_env_image() {
	[ -f "$uboot" ] && command -v mkenvimage > /dev/null ||
		die "U-Boot ($uboot) or mkenvimage is missing: run make deps"
	{
		"$boardgen" uboot-env "$board_file" || exit 1
		printf 'acma_args=%s\n' "$1"
	} > "$out/uboot-env.txt"
	mkenvimage -s 0x40000 -o "$out/uboot-env.img" "$out/uboot-env.txt" ||
		die "mkenvimage failed on $out/uboot-env.txt"
	truncate -s 64M "$out/uboot-env.img"
}

# qemu_machine_args ARGS: what the board's machine needs besides its memory (boardgen
# qemu-args): the CPU, the firmware that loads the kernel with the kernel arguments
# (ARGS: the run's), the guest's lines to the host and the BMC's system interface.
#   q35:  -kernel/-initrd/-append; ttyS0 the console (console.log), ttyS1 the report
#         channel (report.log), ttyS2 the request line to the host's agent; an ISA KCS.
#   virt: U-Boot (-bios) with its environment in the second flash, which loads -kernel
#         and -initrd from fw_cfg and adds the devicetree node; one PL011, ttyAMA0, the
#         console; the report channel and the request line are virtio consoles (hvc0,
#         hvc1); a PCI KCS.
qemu_machine_args() {
	uboot=/usr/lib/u-boot/qemu_arm64/u-boot.bin
	hostreq="socket,id=hostreq,path=$out/hostreq.sock,server=on,wait=off"
	case $BOARD_QEMU_MACHINE in
	virt)
		uboot_env_image "$1"
		# cortex-a57: under TCG the same boot time as "max" (~2 s to /init) and less
		# time in memory-heavy tests (e2e 40 and 85: 64-75 s against 76-91 s)
		set -- -cpu cortex-a57 -bios "$uboot" \
			-drive "if=pflash,unit=1,format=raw,file=$out/uboot-env.img" \
			-kernel "$kernel" -initrd "$initrd" \
			-serial "file:$out/console.log" \
			-device virtio-serial-pci \
			-chardev "file,id=report,path=$out/report.log" \
			-device virtconsole,chardev=report,nr=0 \
			-chardev "$hostreq" -device virtconsole,chardev=hostreq,nr=1
		kcs=pci-ipmi-kcs
		;;
	*)
		# A board's ranks hold no boot memory: their DIMMs are not hot-plug
		# memory for ACPI's driver to add at boot, the DRAM power driver adds
		# each rank's memory once firmware confirmed the rank on
		# (acpi_no_memhotplug); a VM board's DIMMs are ACPI's to add.
		local rank_memory=
		board_has_bmc && rank_memory=acpi_no_memhotplug
		set -- -cpu max -kernel "$kernel" -initrd "$initrd" \
			-append "console=ttyS0 nokaslr panic=-1 $rank_memory $1" \
			-serial "file:$out/console.log" -serial "file:$out/report.log" \
			-chardev "$hostreq" -serial chardev:hostreq
		kcs=isa-ipmi-kcs
		;;
	esac
	if board_has_bmc; then
		set -- "$@" -chardev "socket,id=ipmi0,path=$kcs_sock,reconnect=10" \
			-device ipmi-bmc-extern,id=bmc0,chardev=ipmi0 -device $kcs,bmc=bmc0
	fi
	printf '%s\n' "$@"
}

# qemu_start MODE KERNEL INITRD [-S]: boot the board; with -S QEMU waits for `cont`.
qemu_start() {
	mode=$1 kernel=$2 initrd=$3
	shift 3
	# The test run also runs the kernel's KUnit suites at boot.
	kunit=
	[ "$mode" = test ] && kunit=kunit.enable=1
	qemu_binary
	accel_pick "$kernel" "$initrd"
	qmp_sock=$out/qmp.sock
	mem_args=$("$boardgen" qemu-args "$board_file" "$shm_dir" "$shm_prefix") || exit 1
	machine_args=$(qemu_machine_args "acma.mode=$mode $kunit ${CONFIG_GUEST_CMDLINE:-}") ||
		exit 1
	set -- "$@" $(qemu_base_args) -accel "$accel"
	while IFS= read -r a; do set -- "$@" "$a"; done <<-EOF
	$mem_args
	$machine_args
	EOF
	for t in $acpi_tables; do
		[ -f "$t" ] || die "ACPI table $t is missing: run make"
		set -- "$@" -acpitable "file=$t"
	done
	set -- "$@" -qmp "unix:$qmp_sock,server=on,wait=off"
	# The scratch disk: sparse, so only what the guest writes takes host space.
	if [ "${BOARD_SCRATCH_DISK_MB:-0}" -gt 0 ]; then
		truncate -s "${BOARD_SCRATCH_DISK_MB}M" "$out/scratch.img" ||
			die "cannot create the scratch disk $out/scratch.img"
		set -- "$@" -drive "file=$out/scratch.img,if=none,id=scratch0,format=raw,cache=unsafe" \
			-device virtio-blk-pci,drive=scratch0
	fi
	printf '%s\n' "$qemu $*" > "$out/qemu.cmdline"
	: > "$out/report.log"
	"$qemu" "$@" > "$out/qemu.log" 2>&1 < /dev/null &
	qemu_pid=$!
	for _ in $(seq 100); do
		[ -S "$qmp_sock" ] && break
		kill -0 $qemu_pid 2>/dev/null || die "QEMU exited: $(tail -n 5 "$out/qemu.log")"
		sleep 0.1
	done
	step QEMU "pid $qemu_pid, $BOARD_QEMU_MACHINE, accel $accel, console $out/console.log"
	host_agent_start
}

# host_agent_start: serve the guest's requests (its request line: /dev/ttyS2 on q35,
# /dev/hvc1 on virt) with scripts/host-agent.sh.
# On a VM board ACMA_LAN_PORT and ACMA_BMC_PID are empty; ACMA_QEMU_PID is QEMU's pid.
host_agent_start() {
	ACMA_QMP=$qmp_sock ACMA_BOARD_FILE=$board_file ACMA_SHM_PREFIX=$shm_prefix ACMA_SHM_DIR=$shm_dir \
		ACMA_LAN_PORT=${lan_port:-} ACMA_BMC_PID=${bmc_pid:-} ACMA_QEMU_PID=$qemu_pid \
		ACMA_BMC_FAULTS=${bmc_pid:+$out/bmc/state/faults} ACMA_BMC_DIR=${bmc_pid:+$out/bmc} \
		ACMA_KCS_SOCK=${kcs_sock:-} \
		socat "UNIX-CONNECT:$out/hostreq.sock" \
		EXEC:"$top/scripts/host-agent.sh" > "$out/host-agent.log" 2>&1 < /dev/null &
	agent_pid=$!
}

# qmp JSON...: run QMP commands after the capabilities handshake; print the replies.
qmp() {
	{
		echo '{"execute":"qmp_capabilities"}'
		for c in "$@"; do echo "$c"; done
		sleep 0.3
	} | socat -t 2 - "UNIX-CONNECT:$qmp_sock" | tail -n +3
}

# qemu_wait SECONDS: wait for the guest to power off; 1 on timeout.
qemu_wait() {
	deadline=$(($(date +%s) + $1))
	while kill -0 "$qemu_pid" 2>/dev/null; do
		[ "$(date +%s)" -lt $deadline ] || return 1
		sleep 0.2
	done
	wait "$qemu_pid" 2>/dev/null || true
	qemu_pid=
}
