#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# `make test`: the host unit tests, then the end-to-end tests on the selected board.
#
#   test.sh --board FILE --kernel IMAGE --initrd CPIO --out DIR [--acpitable AML]...
#
# Everything is reported as one TAP stream; the last line is
# "N passed, N failed, N skipped" and the exit status is non-zero on any failure.
#
# End-to-end order: the BMC and QEMU start with the guest CPU stopped (-S); the host
# tests (tests/e2e/host: ipmitool over lanplus, QMP) run against that fixed state; then
# the guest runs its own tests (tests/e2e/guest) and reports TAP over its second
# serial port.
set -eu
. "$(dirname "$0")/lib/runner.sh"

runner_args "$@"
# TESTS=GLOB (make test TESTS='8*') runs only the host and guest end-to-end tests
# whose file names match; the unit, build and log checks always run.
tests=${TESTS:-*}
[ -n "${TESTS:-}" ] && CONFIG_GUEST_CMDLINE="${CONFIG_GUEST_CMDLINE:-} acma.tests=$TESTS"

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
	set -e
	tap_import "unit/$(basename "$u" | sed 's/^test-//')/" "$out/$(basename "$u").tap"
done

echo "# build-system tests (host)"
for t in "$top"/tests/build/*.sh; do
	run_test build/ "$t"
done
t_unit=$(date +%s)

echo "# end-to-end tests: board $BOARD_NAME in QEMU"
bmc_start
qemu_start test "$kernel" "$initrd" -S
export ACMA_OUT=$out ACMA_LAN_PORT=$lan_port ACMA_QMP=$qmp_sock ACMA_BOARD_FILE=$board
export ACMA_SHM_PREFIX=$shm_prefix
for t in "$top"/tests/e2e/host/*.sh; do
	# shellcheck disable=SC2254
	case $(basename "$t") in $tests) ;; *) continue ;; esac
	run_test host/ "$t"
done
qmp '{"execute":"cont"}' > /dev/null
if qemu_wait "${CONFIG_RUN_TIMEOUT:-900}"; then
	if grep -q '^1\.\.' "$out/report.log"; then
		tap_import "" "$out/report.log"
		planned=$(tr -d '\r' < "$out/report.log" | sed -n 's/^1\.\.\([0-9]*\)$/\1/p')
		got=$(grep -c '^\(not \)\?ok ' "$out/report.log" || true)
		[ "$planned" = "$got" ] ||
			result fail "guest/complete" "the guest planned $planned tests and reported $got (console: $out/console.log)"
	else
		result fail "guest/boot" "the guest reported no tests (console: $out/console.log)"
	fi
else
	result fail "guest/finish" "the guest did not finish within ${CONFIG_RUN_TIMEOUT:-900} s"
fi
# The kernel's KUnit suites ran at boot and reported KTAP on the console:
# one result per suite (top-level lines), with the failing cases' diagnostics.
if grep -q '^KTAP version' "$out/console.log"; then
	tr -d '\r' < "$out/console.log" | grep -E '^(not )?ok [0-9]+ ' > "$out/kunit.tap" || true
	grep -E '^ +not ok ' "$out/console.log" | sed 's/^ */# kunit: /' || true
	tap_import "kunit/" "$out/kunit.tap"
else
	result fail "kunit/boot" "no KUnit results on the console ($out/console.log)"
fi

# A kernel splat fails the run even when every test passed.
splats=$(grep -E 'WARNING: CPU|BUG:|Oops|Call Trace:|Kernel panic|UBSAN|KASAN' "$out/console.log" || true)
if [ -z "$splats" ]; then
	result ok "host/guest-kernel-log-clean"
else
	echo "$splats" | head -n 20 | sed 's/^/# /'
	result fail "host/guest-kernel-log-clean" "kernel warnings in $out/console.log"
fi
pids="$bmc_pid $qemu_pid"
runner_cleanup
left=$(ls /dev/shm | grep -c "^$shm_prefix-" || true)
alive=$(for p in $pids; do kill -0 "$p" 2>/dev/null && echo "$p"; done || true)
if [ "$left" = 0 ] && [ -z "$alive" ]; then
	result ok "host/runner-cleanup"
else
	result fail "host/runner-cleanup" "$left files left in /dev/shm, processes left: ${alive:-none}"
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
