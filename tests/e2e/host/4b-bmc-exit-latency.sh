#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# On a private BMC whose ranks take 1 s to leave "off": powering a rank on is answered
# only once its exit latency has passed (a completed "on" means the rank is usable),
# but the BMC keeps answering others meanwhile: a read in another session during the
# wait is answered at once.
. "$(dirname "$0")/lib/bmc.sh"
own_bmc_setup
bmc_ranks_sed='s/off=0mW,[0-9]*ns/off=0mW,1000000000ns/'
own_bmc_start
grep -q 'off=0mW,1000000000ns' "$out/bmc/ranks.conf" || fail "the exit latency was not set"
ms() { echo $(($(date +%s%N) / 1000000)); }

expect "rank 1 off" "$(oem admin 0x44 1 1)" "01 01 00"
t0=$(ms)
( bmc_admin -N 3 raw 0x30 0x44 1 0 > "$own_dir/on.out" 2>&1; ms > "$own_dir/on.end" ) &
on_pid=$!
sleep 0.4
t1=$(ms)
read=$(oem user 0x43 2)
t2=$(ms)
wait $on_pid
echo "power-on of rank 1: $(cat "$own_dir/on.out" | tr -d '\n'), answered after $(($(cat "$own_dir/on.end") - t0)) ms"
echo "read of rank 2 during the wait: $read, answered after $((t2 - t1)) ms"
expect "rank 1 on" "$(tr -d '\n' < "$own_dir/on.out")" " 01 00 01"
[ $(($(cat "$own_dir/on.end") - t0)) -ge 1000 ] || fail "rank 1 was reported on before its exit latency"
[ $((t2 - t1)) -lt 500 ] || fail "the BMC answered nobody else while rank 1 left off ($((t2 - t1)) ms)"
expect "rank 2, read during the wait" "$(echo "$read" | cut -d' ' -f1-2)" "02 00"
