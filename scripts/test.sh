#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# `make test`: the host unit tests, then the end-to-end tests on the selected board.
#
#   test.sh --board FILE --kernel IMAGE --initrd CPIO --out DIR [--acpitable AML]...
#           [--also BOARD[+debug]:GLOB[,GLOB]...]...
#
# --also runs, after the selected board, the end-to-end tests matching the globs on
# another board (built beforehand by make: build/BOARD/), in the same TAP stream, the
# results named BOARD/...: make test covers the other firmware paths this way.
#
# Everything is reported as one TAP stream; the last line is
# "N passed, N failed, N skipped" and the exit status is non-zero on any failure.
#
# End-to-end order: the BMC and QEMU start with the guest CPU stopped (-S); the host
# tests (tests/e2e/host: ipmitool over lanplus, QMP) run against that fixed state; then
# the guest runs its own tests (tests/e2e/guest) and reports TAP over its second
# serial port. A VM board (firmware none) has no BMC: ACMA_LAN_PORT is empty for the
# host tests, which skip what needs the board's BMC.
set -eu
. "$(dirname "$0")/lib/runner.sh"

runner_args "$@"
# TESTS=GLOB[,GLOB...] (make test TESTS='8*') runs only the host and guest end-to-end
# tests whose file names match; the unit, build and log checks always run.
guest_cmdline=${CONFIG_GUEST_CMDLINE:-}

# matches NAME GLOBS: does NAME match one of the comma-separated GLOBS?
matches() {
	local g
	IFS=, read -ra globs <<< "$2"
	for g in "${globs[@]}"; do
		# shellcheck disable=SC2053
		[[ $1 == $g ]] && return 0
	done
	return 1
}

n=0 passed=0 failed=0 skipped=0
t0=$(date +%s)

# result STATUS NAME [REASON]: one TAP line, counted.
result() {
	n=$((n + 1))
	case $1 in
	ok) passed=$((passed + 1)); echo "ok $n $2" ;;
	skip) skipped=$((skipped + 1)); echo "ok $n $2 # SKIP $3" ;;
	*) failed=$((failed + 1)); echo "not ok $n $2${3:+ # $3}" ;;
	esac
}

# tap_import PREFIX FILE: take over the results of another TAP stream, renumbered.
tap_import() {
	while IFS= read -r line; do
		case $line in
		"ok "*"# SKIP"*)
			name=$(echo "$line" | sed 's/^ok [0-9]* \(.*\) # SKIP.*/\1/')
			result skip "$1$name" "$(echo "$line" | sed 's/.*# SKIP *//')" ;;
		"ok "*) result ok "$1$(echo "$line" | sed 's/^ok [0-9]* //')" ;;
		"not ok "*) result fail "$1$(echo "$line" | sed 's/^not ok [0-9]* //')" ;;
		"#"*) echo "$line" ;;
		esac
	done < <(tr -d '\r' < "$2" | sed 's/^\(\(not \)\?ok [0-9]*\) - /\1 /')
}

# run_test PREFIX EXECUTABLE: one kselftest-style test (exit 0 pass, 4 skip).
run_test() {
	name=$1$(basename "$2")
	set +e
	timeout 300 "$2" > "$out/test.out" 2>&1
	rc=$?
	set -e
	sed 's/^/# /' "$out/test.out"
	case $rc in
	0) result ok "$name" ;;
	4) result skip "$name" "$(tail -n 1 "$out/test.out" | sed 's/^SKIP:* *//')" ;;
	*) result fail "$name" "exit $rc" ;;
	esac
}

runner_init "$outdir" "$board"
echo "TAP version 13"

echo "# unit tests (host)"
for u in "$top"/build/host/test-*; do
	[ -x "$u" ] || continue
	set +e
	"$u" > "$out/$(basename "$u").tap" 2>&1
	rc=$?
	set -e
	tap_import "unit/$(basename "$u" | sed 's/^test-//')/" "$out/$(basename "$u").tap"
	# a crash (a sanitizer's report, a signal) that no "not ok" line tells of
	if [ $rc != 0 ] && ! grep -q '^not ok ' "$out/$(basename "$u").tap"; then
		result fail "unit/$(basename "$u" | sed 's/^test-//')/exit" \
			"exit $rc (output: $out/$(basename "$u").tap)"
	fi
done

echo "# build-system tests (host)"
for t in "$top"/tests/build/*.sh; do
	run_test build/ "$t"
done
t_unit=$(date +%s)

# bmc_accessed_off_check NAME: the BMC reports memory of a rank accessed while the rank
# was off (firmware-glue/bmc/fault.c): what real DRAM would answer with a machine check
# or garbage. Nothing to check on a board without a BMC.
bmc_accessed_off_check() {
	local hits
	board_has_bmc || return 0
	hits=$(grep -a 'acma: rank [0-9]*: memory accessed while off' "$out/bmc/bmc.log" 2>/dev/null || true)
	if [ -z "$hits" ]; then
		result ok "$1"
	else
		echo "$hits" | head -n 10 | sed 's/^/# BMC: /'
		result fail "$1" "memory of a rank was accessed while it was off ($out/bmc/bmc.log)"
	fi
}

# kexec_disk KERNEL INITRD: the kernel and initramfs a guest kexecs, as a tar archive
# ($out/kexec.tar) for a virtio disk with serial acma-kexec (scripts/guest/lib.sh,
# kexec_load); its QEMU arguments into the array kexec_args.
kexec_disk() {
	mkdir -p "$out/kexec"
	cp "$1" "$out/kexec/kernel" && cp "$2" "$out/kexec/initrd" &&
		tar -cf "$out/kexec.tar" -C "$out/kexec" kernel initrd || die "cannot make $out/kexec.tar"
	rm -rf "$out/kexec"
	kexec_args=(-drive "file=$out/kexec.tar,if=none,id=kexec0,format=raw,readonly=on"
		-device virtio-blk-pci,drive=kexec0,serial=acma-kexec)
}

# rebooted_check KERNEL INITRD OFF-STATE: after the reboot check's restart, switch
# every rank off at the BMC (state index OFF-STATE), as a power loss or a kernel that
# never powered them on leaves them, and boot the board again (acma.mode=rebooted,
# scripts/guest/rebooted): the DRAM power driver must power each rank on before its
# memory is used (the BMC sees any use before: bmc_accessed_off_check), and every
# rank's memory must come back and keep checksummed data that fill nearly all memory.
# The first boot's logs are kept as console-first.log and report-first.log. What is
# wrong goes into rb_bad, empty when all is well.
rebooted_check() {
	local line r raw
	rb_bad=
	for r in $("$boardgen" ranks "$board_file" | cut -d' ' -f1 | sort -un); do
		raw=$(bmc_admin raw 0x30 0x44 "$r" "$3" 2>&1) ||
			rb_bad="$rb_bad rank $r not switched off between the boots: $raw;"
	done
	[ -z "$rb_bad" ] || return
	mv "$out/console.log" "$out/console-first.log"
	mv "$out/report.log" "$out/report-first.log"
	qemu_start rebooted "$1" "$2"
	if ! qemu_wait "${CONFIG_RUN_TIMEOUT:-900}"; then
		rb_bad=" the second boot did not finish within ${CONFIG_RUN_TIMEOUT:-900} s;"
		return
	fi
	line=$(tr -d '\r' < "$out/report.log" | grep -E '^(rebooted|error) ' | tail -n 1)
	echo "# after the restart: ${line:-nothing reported}"
	case $line in
	"rebooted "*" check ok") ;;
	"") rb_bad=" the second boot said nothing;" ;;
	*) rb_bad=" second boot: $line;" ;;
	esac
	set -- $line
	[ "${3:-0}" = "${4:-}" ] || rb_bad="$rb_bad data on ${3:-0} of ${4:-?} ranks after the restart;"
}

# reboot_check OUT BOARD-FILE KERNEL INITRD PREFIX HOW: a boot of its own
# (acma.mode=HOW): the guest scales down until ranks are off (scripts/guest/ranks-off)
# and, with them off, restarts (HOW reboot: QEMU exits, -no-reboot) or kexecs the
# same kernel without the DRAM power driver (HOW kexec, scripts/guest/kexec; that
# kernel reports and powers off). Then every rank must be on at the BMC, as the DRAM
# power driver's reboot notifier leaves them for the next boot's firmware or kernel;
# after a restart, the board boots again with its ranks off and every rank must come
# on before use and keep data (rebooted_check);
# the kexec'd kernel must have no rank memory in its memory map.
reboot_check() {
	local how=$6 name=${5}host/ranks-on-at-$6 line off r raw bytes bad= kexeced
	runner_init "$1" "$2"
	bmc_start
	kexec_args=()
	[ "$how" = kexec ] && kexec_disk "$3" "$4"
	qemu_start "$how" "$3" "$4" "${kexec_args[@]}"
	if ! qemu_wait "${CONFIG_RUN_TIMEOUT:-900}"; then
		result fail "$name" "the guest did not $how within ${CONFIG_RUN_TIMEOUT:-900} s"
		runner_cleanup
		return
	fi
	line=$(tr -d '\r' < "$out/report.log" | grep -E '^(ranks-off|error) ' | tail -n 1)
	case $line in
	"ranks-off "*)
		off=${line#ranks-off }
		mapfile -t names < <("$boardgen" states "$2" | cut -d' ' -f1)
		for r in $("$boardgen" ranks "$2" | cut -d' ' -f1 | sort -un); do
			raw=$(bmc_admin raw 0x30 0x43 "$r" 2>&1) || { bad="$bad rank $r: $raw;"; continue; }
			read -ra bytes <<< "$(echo "$raw" | tr '\n' ' ')"
			state=${names[$((16#${bytes[1]:-ff}))]:-unknown}
			[ "$state" = on ] || bad="$bad rank $r $state;"
		done
		echo "# ${how} with ranks $off off; at the BMC after the $how:${bad:- every rank on}"
		if [ "$how" = reboot ] && [ -z "$bad" ]; then
			for r in "${!names[@]}"; do [ "${names[$r]}" = off ] && break; done
			rebooted_check "$3" "$4" "$r"
			bad=$rb_bad
		fi
		if [ "$how" = kexec ]; then
			kexeced=$(tr -d '\r' < "$out/report.log" | sed -n 's/^kexeced //p')
			case $kexeced in
			0) ;;
			"") bad="$bad the kexec'd kernel did not report;" ;;
			*) bad="$bad the kexec'd kernel has $kexeced System RAM ranges on ranks;" ;;
			esac
		fi
		if [ -z "$bad" ]; then
			result ok "$name"
		else
			result fail "$name" "after the $how:$bad (console: $out/console.log)"
		fi
		;;
	*)
		result fail "$name" "${line:-the guest said nothing} (report: $out/report.log)"
		;;
	esac
	bmc_accessed_off_check "$name/no-access-to-off-ranks"
	runner_cleanup
}

# bench_check OUT BOARD-FILE KERNEL INITRD PREFIX: a boot of its own in benchmark mode
# (acma.mode=bench), as `make bench` boots it, with one quick benchmark (the rank power
# cycle, tests/bench/guest/50-rank-power-cycle): the mode must find its benchmarks, run
# the one asked for and report its figures. A broken listing once made `make bench`
# run nothing and finish as if all was well.
bench_check() {
	local name=${5}host/bench-mode-runs figures ran
	runner_init "$1" "$2"
	bmc_start
	CONFIG_GUEST_CMDLINE="$guest_cmdline acma.bench=50-* acma.bench_reps=1" \
		qemu_start bench "$3" "$4"
	if ! qemu_wait "${CONFIG_RUN_TIMEOUT:-900}"; then
		result fail "$name" "the guest did not finish within ${CONFIG_RUN_TIMEOUT:-900} s"
		runner_cleanup
		return
	fi
	figures=$(tr -d '\r' < "$out/report.log" | grep -E '^bench rank_(off|on)_ms [0-9]+ ms' || true)
	echo "$figures" | sed 's/^/# /'
	ran=$(tr -d '\r' < "$out/report.log" | grep -E '^# [0-9]{2}-[a-z0-9-]+$' | tr '\n' ' ' || true)
	if [ "$(echo "$figures" | grep -c .)" = 2 ] && [ "$ran" = "# 50-rank-power-cycle " ]; then
		result ok "$name"
	else
		result fail "$name" "ran: ${ran:-no benchmark}; the rank power cycle must run alone and report its 2 figures (report: $out/report.log)"
	fi
	runner_cleanup
}

# kdump_check OUT BOARD-FILE KERNEL INITRD PREFIX: a boot of its own (acma.mode=kdump):
# the guest loads a crash kernel (the same kernel and initramfs, on a virtio disk),
# scales down until ranks are off and back up until some are on again, and crashes
# (scripts/guest/kdump); the crash kernel reads the whole dump (scripts/guest/vmcore).
# The crash kernel must find each rank as the crashed one left it, add none of their
# memory (it is the crashed kernel's, in the dump), read /proc/vmcore to its end, and
# never read a rank that is off (the BMC sees that: bmc_accessed_off_check).
kdump_check() {
	local name=${5}host/kdump-ranks-off crash off on lines bad= id state want
	runner_init "$1" "$2"
	bmc_start
	kexec_disk "$3" "$4"
	CONFIG_GUEST_CMDLINE="$guest_cmdline crashkernel=160M" \
		qemu_start kdump "$3" "$4" "${kexec_args[@]}"
	if ! qemu_wait "${CONFIG_RUN_TIMEOUT:-900}"; then
		result fail "$name" "the guest did not finish within ${CONFIG_RUN_TIMEOUT:-900} s"
		runner_cleanup
		return
	fi
	lines=$(tr -d '\r' < "$out/report.log")
	crash=$(echo "$lines" | grep -E '^(ranks-at-crash|error) ' | head -n 1)
	case $crash in
	"ranks-at-crash "*) ;;
	*)
		result fail "$name" "${crash:-the guest did not crash as planned} (report: $out/report.log)"
		runner_cleanup
		return
		;;
	esac
	off=$(echo "$crash" | sed -n 's/^ranks-at-crash off \(.*\) on .*/\1/p')
	on=$(echo "$crash" | sed -n 's/.* on \(.*\)$/\1/p')
	echo "$lines" | grep -q '^crash-kernel ' || bad="$bad the crash kernel did not report;"
	for id in $off $on; do
		want=on
		case " $off " in *" $id "*) want=off ;; esac
		state=$(echo "$lines" | sed -n "s/^domain $id //p" | head -n 1)
		[ "$state" = "$want" ] || bad="$bad rank $id ${state:-unreported} in the crash kernel, $want at the crash;"
	done
	echo "$lines" | grep -q '^rank-memory-added 0$' ||
		bad="$bad $(echo "$lines" | grep '^rank-memory-added' || echo 'rank-memory-added unreported') (none may be added);"
	echo "$lines" | grep -qE '^vmcore-read ([0-9]+) \1 ' ||
		bad="$bad /proc/vmcore not read whole: $(echo "$lines" | grep -E '^(vmcore-read|error) ' || echo 'no answer');"
	echo "# at the crash: off $off, on $on; $(echo "$lines" | grep '^vmcore-read' | awk '{ printf "vmcore %d MiB read in %d s", $2 / 1048576, $4 }')"
	if [ -z "$bad" ]; then
		result ok "$name"
	else
		result fail "$name" "$bad (console: $out/console.log)"
	fi
	bmc_accessed_off_check "${5}host/kdump-ranks-off/no-access-to-off-ranks"
	runner_cleanup
}

# e2e OUT BOARD-FILE KERNEL INITRD PREFIX GLOBS: the end-to-end tests of one board.
e2e() {
	local eout=$1 eboard=$2 ekernel=$3 einitrd=$4 prefix=$5 tests=$6
	[ -n "$prefix" ] && runner_init "$eout" "$eboard"
	CONFIG_GUEST_CMDLINE=$guest_cmdline
	[ "$tests" != "*" ] && CONFIG_GUEST_CMDLINE="$guest_cmdline acma.tests=$tests"
	echo "# end-to-end tests: board $BOARD_NAME in QEMU${prefix:+ ($tests)}"
	bmc_start
	qemu_start test "$ekernel" "$einitrd" -S
	export ACMA_OUT=$out ACMA_LAN_PORT=${lan_port:-} ACMA_QMP=$qmp_sock ACMA_BOARD_FILE=$eboard
	export ACMA_SHM_PREFIX=$shm_prefix ACMA_SHM_DIR=$shm_dir ACMA_QEMU_PID=$qemu_pid
	for t in "$top"/tests/e2e/host/*.sh; do
		matches "$(basename "$t")" "$tests" || continue
		run_test "${prefix}host/" "$t"
	done
	qmp '{"execute":"cont"}' > /dev/null
	if qemu_wait "${CONFIG_RUN_TIMEOUT:-900}"; then
		if grep -q '^1\.\.' "$out/report.log"; then
			tap_import "$prefix" "$out/report.log"
			planned=$(tr -d '\r' < "$out/report.log" | sed -n 's/^1\.\.\([0-9]*\)$/\1/p')
			got=$(grep -c '^\(not \)\?ok ' "$out/report.log" || true)
			[ "$planned" = "$got" ] ||
				result fail "${prefix}guest/complete" "the guest planned $planned tests and reported $got (console: $out/console.log)"
		else
			result fail "${prefix}guest/boot" "the guest reported no tests (console: $out/console.log)"
		fi
	else
		# what it reported so far counts; the test it was running is named
		tap_import "$prefix" "$out/report.log"
		running=$(tr -d '\r' < "$out/report.log" | grep -E '^(# running |(not )?ok )' | tail -n 1 | sed -n 's/^# running //p')
		tr -d '\r' < "$out/console.log" | grep -E -A12 'blocked for more|task:.* state:D' |
			head -n 60 | sed 's/^/# console: /' || true
		result fail "${prefix}guest/finish" \
			"the guest did not finish within ${CONFIG_RUN_TIMEOUT:-900} s${running:+, in $running} (console: $out/console.log)"
	fi
	# The kernel's KUnit suites ran at boot and reported KTAP on the console:
	# one result per suite (top-level lines), with the failing cases' diagnostics.
	if grep -q '^KTAP version' "$out/console.log"; then
		tr -d '\r' < "$out/console.log" | grep -E '^(not )?ok [0-9]+ ' > "$out/kunit.tap" || true
		grep -E '^ +not ok ' "$out/console.log" | sed 's/^ */# kunit: /' || true
		tap_import "${prefix}kunit/" "$out/kunit.tap"
	else
		result fail "${prefix}kunit/boot" "no KUnit results on the console ($out/console.log)"
	fi

	# A kernel splat fails the run even when every test passed.
	splats=$(grep -E 'WARNING: CPU|BUG:|Oops|Call Trace:|Kernel panic|UBSAN|KASAN' "$out/console.log" || true)
	if [ -z "$splats" ]; then
		result ok "${prefix}host/guest-kernel-log-clean"
	else
		echo "$splats" | head -n 20 | sed 's/^/# /'
		result fail "${prefix}host/guest-kernel-log-clean" "kernel warnings in $out/console.log"
	fi
	bmc_accessed_off_check "${prefix}host/no-access-to-off-ranks"
	pids="$bmc_pid $qemu_pid $(cat "$out/bmc/restarted.pid" 2>/dev/null || true)"
	runner_cleanup
	left=0
	[ -e "$out/scratch.img" ] && left=$((left + 1))
	[ -n "${run_dir:-}" ] && [ -e "$run_dir" ] && left=$((left + 1))
	alive=$(for p in $pids; do kill -0 "$p" 2>/dev/null && echo "$p"; done || true)
	if [ "$left" = 0 ] && [ -z "$alive" ]; then
		result ok "${prefix}host/runner-cleanup"
	else
		result fail "${prefix}host/runner-cleanup" "private run folder or scratch disk left ($left), processes left: ${alive:-none}"
	fi
	for m in reboot kexec; do
		if [ "$BOARD_FIRMWARE" != none ] && matches ranks-on-at-$m "$tests"; then
			reboot_check "$eout-$m" "$eboard" "$ekernel" "$einitrd" "$prefix" $m
		fi
	done
	if [ "$BOARD_FIRMWARE" != none ] && matches kdump-ranks-off "$tests"; then
		kdump_check "$eout-kdump" "$eboard" "$ekernel" "$einitrd" "$prefix"
	fi
	# benchmark mode, on the selected board only (a boot of about a minute)
	if [ -z "$prefix" ] && [ "$BOARD_FIRMWARE" != none ] && matches bench-mode-runs "$tests"; then
		bench_check "$eout-bench" "$eboard" "$ekernel" "$einitrd" "$prefix"
	fi
}

# the selected board's, kept: the runner's qemu_start sets $kernel and $initrd for each
board_acpi_tables=$acpi_tables main_kernel=$kernel board_initrd=$initrd board_firmware=$BOARD_FIRMWARE
e2e "$outdir" "$board" "$kernel" "$initrd" "" "${TESTS:-*}"
for a in "${also[@]}"; do
	# BOARD+debug: the board on the debug kernel flavour (build/<arch>-debug)
	b=${a%%:*} base=${b%%+*} flavour=
	[ "$b" != "$base" ] && flavour=-${b#*+}
	acpi_tables=
	needs=$("$boardgen" needs "$top/boards/$base/board.hw") || exit 1
	for t in $needs; do
		case $t in mpst|ssdt) acpi_tables="$acpi_tables $top/build/$base/$t.aml" ;; esac
	done
	e2e "$top/build/$b/test" "$top/boards/$base/board.hw" \
		"$(board_kernel "$top/boards/$base/board.hw" "$flavour")" \
		"$top/build/$base/initramfs.cpio.gz" "$b/" "${a#*:}"
done

# make run's demo on the selected board, as a user runs it: it must end with exit 0,
# the ranks going off, on and off again, and the energy in its summary (a VM board,
# which has no ranks and no DRAM power: exit 0 and a summary).
if [ -z "${TESTS:-}" ]; then
	demo_done='^  DRAM energy over'
	[ "$board_firmware" = none ] && demo_done='^Summary'
	demo_args=()
	for t in $board_acpi_tables; do demo_args+=(--acpitable "$t"); done
	set +e
	"$top/scripts/run-board.sh" --mode demo --board "$board" --kernel "$main_kernel" \
		--initrd "$board_initrd" --out "$outdir-demo" "${demo_args[@]}" > "$outdir.demo.out" 2>&1
	rc=$?
	set -e
	sed -n '/^Summary/,$p' "$outdir.demo.out" | sed 's/^/# /'
	if [ $rc = 0 ] && grep -q "$demo_done" "$outdir.demo.out"; then
		result ok "host/make-run-demo"
	else
		tail -n 5 "$outdir.demo.out" | sed 's/^/# /'
		result fail "host/make-run-demo" "exit $rc (output: $outdir.demo.out)"
	fi
fi
t_end=$(date +%s)

echo "1..$n"
echo "# time: unit and build $((t_unit - t0)) s, end-to-end $((t_end - t_unit)) s, total $((t_end - t0)) s"
if [ $skipped -gt 0 ]; then
	echo "$passed passed, $failed failed, $skipped skipped"
else
	echo "$passed passed, $failed failed"
fi
[ $failed = 0 ]
