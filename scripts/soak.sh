#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# `make soak`: boot the board and run the BMC fault test (tests/e2e/guest/8e-*) for
# CYCLES scale-down/up cycles of the top rank instead of its three fixed ones, the
# BMC misbehaving at random each way (refused, short, wrong echo, late, killed and
# restarted, hung; min_mem and max_mem changed mid-scale), a program's checksummed
# data checked after every cycle while ranks that are off really lose their contents.
# Prints the figures: cycles, rank power-offs, faults, bytes checked, corruptions,
# invariant violations, kernel warnings. Not part of make test (which runs the same
# test's three cycles); a failure stops the soak and says at which cycle.
#
#   soak.sh --board FILE --kernel IMAGE --initrd CPIO --out DIR [--acpitable AML]...
#
# SOAK_CYCLES (default 1000) and SOAK_SEED (default: the time) pick the run.
set -eu
. "$(dirname "$0")/lib/runner.sh"

runner_args "$@"
cycles=${SOAK_CYCLES:-1000}
seed=${SOAK_SEED:-$(date +%s)}
case $cycles$seed in *[!0-9]*|"") die "SOAK_CYCLES and SOAK_SEED are numbers" ;; esac
[ "$cycles" -gt 0 ] || die "SOAK_CYCLES must be 1 or more"
t0=$(date +%s)
runner_init "$outdir" "$board"
board_has_bmc || die "board $BOARD_NAME has no BMC: nothing to soak"
say "acma: soak on board $BOARD_NAME: $cycles cycles, seed $seed (SOAK_CYCLES=, SOAK_SEED=)"
CONFIG_GUEST_CMDLINE="${CONFIG_GUEST_CMDLINE:-} acma.tests=8e-* acma.soak=$cycles:$seed"
bmc_start
qemu_start test "$kernel" "$initrd"
# a cycle takes 10-60 s under TCG, faults included
timeout=$((300 + cycles * 120))
say "  soaking (report: $out/report.log, at most $timeout s)..."
if ! qemu_wait "$timeout"; then
	say "the soak did not finish within $timeout s"
	finished=0
else
	finished=1
fi
report=$(tr -d '\r' < "$out/report.log" 2>/dev/null || true)
warnings=$(grep -cE 'WARNING: CPU|BUG:|Oops|Call Trace:|Kernel panic|UBSAN|KASAN' "$out/console.log" || true)
done_cycles=$(echo "$report" | grep -c '^# cycle [0-9]* of' || true)
echo "$report" | grep '^# \(cycle\|  \|soak\)' | tail -n 40
echo "$report" | grep '^# FAIL' || true
say ""
say "soak: $done_cycles of $cycles cycles done (seed $seed), $(( $(date +%s) - t0 )) s"
summary=$(echo "$report" | sed -n 's/^# soak: cycles/cycles/p' | tail -n 1)
[ -n "$summary" ] && say "soak: $summary"
say "soak: kernel warnings in the log: $warnings (console: $out/console.log)"
if [ "$finished" = 1 ] && echo "$report" | grep -q '^ok .*8e-acma-bmc-faults' && [ "$warnings" = 0 ]; then
	say "soak: passed"
else
	say "soak: FAILED (logs: $out/{report,console}.log, $out/bmc/bmc.log)"
	exit 1
fi
