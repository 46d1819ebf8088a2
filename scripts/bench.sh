#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# `make bench`: boot the board, run the guest's benchmarks (tests/bench/guest) and
# print their figures beside the baselines they beat, measured in the same run and
# shown as ratios (this machine is shared and noisy: absolute figures drift).
#
#   bench.sh --board FILE --kernel IMAGE --initrd CPIO --out DIR [--acpitable AML]...
#            [--also BOARD:GLOB[,GLOB...]]...
#
# --also then boots another board (built beforehand by make: build/BOARD/) with only
# the benchmarks matching the globs, and prints its figures beside the board's: the
# Arm board's rank power cycle beside the x86 board's, for one.
set -eu
. "$(dirname "$0")/lib/runner.sh"

runner_args "$@"
t0=$(date +%s)
base_cmdline=${CONFIG_GUEST_CMDLINE:-}

# bench_board OUT BOARD-FILE KERNEL INITRD: boot the board in benchmark mode, wait for
# it; its report in $out/bench.txt, and the time from starting QEMU until its user space
# reported (firmware, kernel, init) in $out/boot_ms.
bench_board() {
	runner_init "$1" "$2"
	bmc_start
	b0=$(date +%s%N)
	qemu_start bench "$3" "$4"
	say "  running the guest's benchmarks (report: $out/report.log)..."
	while [ ! -s "$out/report.log" ] && kill -0 "$qemu_pid" 2>/dev/null; do sleep 0.02; done
	echo $((($(date +%s%N) - b0) / 1000000)) > "$out/boot_ms"
	qemu_wait "${CONFIG_RUN_TIMEOUT:-900}" ||
		die "the benchmarks did not finish within ${CONFIG_RUN_TIMEOUT:-900} s"
	tr -d '\r' < "$out/report.log" > "$out/bench.txt"
}

# BENCHES=GLOB[,GLOB...] (make bench BENCHES=...) runs only the benchmarks matching;
# BENCH_REPS=N (default 3) rounds of the noisy ones, DAMON_ACMA on and off interleaved
reps=${BENCH_REPS:-3}
case $reps in [1-9] | [1-9][0-9]) ;; *) die "BENCH_REPS=$reps: a number of rounds, 1-99" ;; esac
CONFIG_GUEST_CMDLINE="$base_cmdline ${BENCHES:+acma.bench=$BENCHES} acma.bench_reps=$reps"
bench_board "$outdir" "$board" "$kernel" "$initrd"
main_out=$out main_name=$BOARD_NAME main_accel=$accel

# fig NAME FIELD: a field of a "bench NAME VALUE UNIT ..." line (3 = VALUE); of a
# figure reported once per round, the field of the round with the median VALUE.
fig() {
	awk -v n="$1" -v f="$2" '$1 == "bench" && $2 == n { v[k + 0] = $3; l[k++] = $f }
	END {
		for (i = 0; i < k; i++) {
			r = 0
			for (j = 0; j < k; j++)
				if (v[j] + 0 < v[i] + 0 || (v[j] + 0 == v[i] + 0 && j < i))
					r++
			if (r == int((k - 1) / 2)) { print l[i]; exit }
		}
	}' "$out/bench.txt"
}
# spread A B: the ratios A/B of two figures reported once per round each (round k's
# A over round k's B), as "MEDIANx" or, over several rounds, "MEDIANx (MIN-MAX, N
# rounds)"; "-" when no round has both.
spread() {
	awk -v a="$1" -v b="$2" '$1 == "bench" && $2 == a { x[na++] = $3 }
	$1 == "bench" && $2 == b { y[nb++] = $3 }
	END {
		n = na < nb ? na : nb
		for (i = 0; i < n; i++)
			if (x[i] > 0 && y[i] > 0)
				r[k++] = x[i] / y[i]
		if (!k) { print "-"; exit }
		for (i = 1; i < k; i++) {
			t = r[i]
			for (j = i - 1; j >= 0 && r[j] > t; j--)
				r[j + 1] = r[j]
			r[j + 1] = t
		}
		m = k % 2 ? r[(k - 1) / 2] : (r[k / 2 - 1] + r[k / 2]) / 2
		if (k == 1)
			printf "%.2fx", m
		else
			printf "%.2fx (%.2f-%.2f, %d rounds)", m, r[0], r[k - 1], k
	}' "$out/bench.txt"
}
# verdict SPREAD AIM: "aim <= AIMx: met" or "not met" for the median of a spread
verdict() {
	awk -v s="${1%%x*}" -v aim="$2" 'BEGIN {
		if (s == "-") print "aim <= " aim "x: not measured"
		else print "aim <= " aim "x: " (s + 0 <= aim + 0 ? "met" : "not met") }'
}
rate() { awk -v b="${1:-0}" -v ms="${2:-0}" 'BEGIN { if (ms > 0 && b > 0) printf "%.3f", b / 1073741824 / (ms / 1000); else print "-" }'; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (a + 0 > 0 && b + 0 > 0) printf "%.2fx", a / b; else print "-" }'; }
mib() { echo $((${1:-0} >> 20)); }

copy=$(fig copy_page_bandwidth 3)
fa=$(rate "$(fig free_alloc_ms 5)" "$(fig free_alloc_ms 3)")
fo=$(rate "$(fig free_offline_ms 5)" "$(fig free_offline_ms 3)")
ba=$(rate "$(fig busy_alloc_ms 5)" "$(fig busy_alloc_ms 3)")
bo=$(rate "$(fig busy_offline_ms 5)" "$(fig busy_offline_ms 3)")
bad=$(rate "$(fig busy_alloc_ms 6)" "$(fig busy_alloc_ms 3)")
bod=$(rate "$(fig busy_offline_ms 6)" "$(fig busy_offline_ms 3)")

if [ -n "$(fig free_alloc_ms 3)" ]; then
	say
	say "DAMOS alloc (2 MiB chunks) vs memory hot-unplug (echo offline), $BOARD_NAME, accel $accel"
	printf '%-44s %12s %12s %8s\n' "taking 512 MiB of..." "alloc GiB/s" "offline GiB/s" "ratio"
	printf '%-44s %12s %12s %8s\n' "free movable memory" "$fa" "$fo" "$(ratio "$fa" "$fo")"
	printf '%-44s %12s %12s %8s\n' "memory holding data (whole range)" "$ba" "$bo" "$(ratio "$ba" "$bo")"
	printf '%-44s %12s %12s %8s\n' "  data migrated ($(mib "$(fig busy_alloc_ms 6)") / $(mib "$(fig busy_offline_ms 6)") MiB)" "$bad" "$bod" "$(ratio "$bad" "$bod")"
	printf '%-44s %12s %12s %8s\n' "  data migrated vs copy_page bandwidth" "$bad" "$copy" "$(ratio "$bad" "$copy")"
	grep '^# data after' "$out/bench.txt" || true
fi

if [ -n "$(fig scale_down_ms 3)" ]; then
	say
	say "DAMON_ACMA, $BOARD_NAME, accel $accel"
	printf '%-44s %12s\n' "scale an idle guest down by $(mib "$(fig scale_down_ms 5)") MiB" \
		"$(fig scale_down_ms 3) ms ($(rate "$(fig scale_down_ms 5)" "$(fig scale_down_ms 3)") GiB/s)"
	say "(with several rounds: each figure is the median round's, each ratio the median of the"
	say " rounds' own ratios, with their min-max)"
	printf '%-44s %12s %12s  %s\n' "" "acma on" "acma off" "ratio"
	printf '%-44s %12s %12s  %s\n' "demand spike of $(fig spike_on_ms 5) MiB until ready (ms)" \
		"$(fig spike_on_ms 3)" "$(fig spike_off_ms 3)" "$(spread spike_on_ms spike_off_ms)"
	sp=$(spread checks_on_ms checks_off_ms)
	printf '%-44s %12s %12s  %s\n' "workload: 3 passes over its data (ms)" \
		"$(fig checks_on_ms 3)" "$(fig checks_off_ms 3)" "$sp; $(verdict "$sp" 1.02)"
	kd=$(fig kdamond_cpu_permille 3) kr=$(fig reclaim_kdamond_cpu_permille 3)
	sp=$(spread kdamond_cpu_permille reclaim_kdamond_cpu_permille)
	printf '%-44s %12s %12s  %s\n' "" "acma" "reclaim" "ratio"
	printf '%-44s %12s %12s  %s\n' "kdamond CPU, idle, steady (permille)" "$kd" "${kr:--}" \
		"$sp; $(verdict "$sp" 1.00), and <= 10 permille: $([ "${kd:-11}" -le 10 ] && echo met || echo not met)"
	grep '^# data checks' "$out/bench.txt" || true
fi
# day_table: the scripted day's figures of the board whose report is in $out
day_table() {
	ea=$(fig energy_acma_mj 3) eall=$(fig energy_all_on_mj 3) eo=$(fig energy_oracle_mj 3)
	grep '^sample ' "$out/bench.txt" | cut -d' ' -f2- > "$out/dram-power-day.dat"
	say
	say "DRAM power over a scripted day (idle 60 s / $(fig day_s 5) MiB busy 60 s / idle 60 s), $BOARD_NAME"
	printf '%-44s %12s %12s %8s\n' "ranks' energy (J)" "acma" "baseline" "ratio"
	printf '%-44s %12s %12s %8s\n' "  vs all ranks always on" "$((ea / 1000))" "$((eall / 1000))" "$(ratio "$ea" "$eall")"
	printf '%-44s %12s %12s %8s\n' "  vs oracle (ceil(working set / rank) on)" "$((ea / 1000))" "$((eo / 1000))" "$(ratio "$ea" "$eo")"
	# the energy saved against all ranks on, as a share of what the oracle saves
	share=$(awk -v a="$ea" -v all="$eall" -v o="$eo" 'BEGIN { if (all > o) printf "%d", 100 * (all - a) / (all - o); else print 0 }')
	printf '%-44s %12s %12s %8s\n' "  saved vs the oracle's saving (J)" "$(((eall - ea) / 1000))" "$(((eall - eo) / 1000))" \
		"$share% (aim >= 90%: $([ "$share" -ge 90 ] && echo met || echo not met))"
	# from the samples: how soon the first idle minute turns ranks off
	dat=$out/dram-power-day.dat
	printf '%-44s %12s\n' "idle: first rank off after" \
		"$(awk 'NR == 1 { n = $2 } $2 < n { print $1 " s"; found = 1; exit } END { if (!found) print "-" }' "$dat")"
	printf '%-44s %12s %12s\n' "idle: ranks on at 20 s (acma, oracle)" \
		"$(awk '$1 <= 20 { r = $2 } END { print r }' "$dat")" "$(awk '$1 <= 20 { r = $5 } END { print r }' "$dat")"
	printf '%-44s %12s\n' "range gone -> rank off (firmware, mean of $(fig gone_to_off_ms 5))" "$(fig gone_to_off_ms 3) ms"
	printf '%-44s %12s\n' "range wanted -> rank on (firmware, mean of $(fig wanted_to_on_ms 5))" "$(fig wanted_to_on_ms 3) ms"
	printf '%-44s %12s\n' "$(fig wanted_to_online_ms 5) removed ranks' memory all online" "$(fig wanted_to_online_ms 3) ms"
	say "  samples (t ranks-on mW used-bytes oracle-ranks): $out/dram-power-day.dat"
}
[ -z "$(fig energy_acma_mj 3)" ] || day_table
if [ -n "$(fig acma_cache 3)" ]; then
	# vm_rate NAME: GiB/s of a give-back figure: what the host got back, over the
	# time the guest took to meet the balloon target, or else the time until the
	# host saw 90% of it (or gave up waiting)
	vm_rate() {
		t=$(fig "$1" 6)
		[ "${t:-0}" -gt 0 ] || t=$(fig "$1" 7)
		rate "$(fig "$1" 3)" "$t"
	}
	# vm NAME: "MIB GUEST-S HOST-S GIB/S WHOLE-2M-PERCENT" of a give-back figure
	vm() {
		awk -v b="$(fig "$1" 3)" -v w="$(fig "$1" 5)" -v g="$(fig "$1" 6)" -v h="$(fig "$1" 7)" \
			-v r="$(vm_rate "$1")" 'BEGIN {
			if (b < 0) b = 0
			if (w > b) w = b
			printf "%10d %8s %8.1f %8s %9s", b / 1048576,
				(g > 0 ? sprintf("%.1f", g / 1000) : "-"), h / 1000, r,
				(b > 0 ? sprintf("%.0f%%", 100 * w / b) : "-") }'
	}
	say
	say "A VM guest giving 1 GiB back to its host, $BOARD_NAME, accel $accel"
	say "(host: QEMU's guest RAM no longer resident, from its pagemap; whole 2 MiB: share of it in"
	say " whole 2 MiB-aligned holes, what host huge pages need)"
	printf '%-40s %10s %8s %8s %8s %9s\n' "" "host MiB" "guest s" "host s" "GiB/s" "whole 2M"
	say "memory the guest touched and freed"
	printf '%-40s %s\n' "  free page reporting alone" "$(vm fpr_freed)"
	printf '%-40s %s\n' "  classic balloon inflation" "$(vm classic_freed)"
	say "an idle guest with a cold page cache"
	printf '%-40s %s\n' "  free page reporting alone (40 s)" "$(vm fpr_cache)"
	printf '%-40s %s\n' "  classic balloon inflation" "$(vm classic_cache)"
	printf '%-40s %s\n' "  acma balloon mode" "$(vm acma_cache)"
	printf '%-40s %10s\n' "  acma vs classic balloon, GiB/s" "$(ratio "$(vm_rate acma_cache)" "$(vm_rate classic_cache)")"
	printf '%-40s %10s\n' "  query-balloon actual vs acma's count" "$(mib "$(fig acma_actual 3)") / $(mib "$(fig acma_actual 5)") MiB"
	grep '^# data after\|^# page cache\|^# acma:' "$out/bench.txt" || true
fi
if [ -n "$(fig rank_off_ms 3)" ]; then
	say
	say "One rank's power cycle through DAMON_ACMA, $BOARD_NAME, accel $accel"
	printf '%-48s %12s\n' "QEMU start to user space" "$(cat "$out/boot_ms") ms"
	printf '%-48s %12s\n' "max_mem lowered -> rank off (firmware part)" \
		"$(fig rank_off_ms 3) ms ($(fig rank_off_ms 5) ms)"
	printf '%-48s %12s\n' "min_mem raised -> blocks online (firmware part)" \
		"$(fig rank_on_ms 3) ms ($(fig rank_on_ms 5) ms)"
fi
problems() {
	if grep -v '^bench \|^#\|^sample ' "$out/bench.txt" | grep -q .; then
		say "The benchmarks reported problems ($BOARD_NAME):"
		grep -v '^bench \|^#\|^sample ' "$out/bench.txt" | sed 's/^/  /'
	fi
}
problems

# col DIR NAME FIELD: a figure of the board whose report is in DIR
col() { out=$1; fig "$2" "$3"; }
# row LABEL A B: two boards' figures and their ratio
row() { printf '%-48s %14s %14s %8s\n' "$1" "$2" "$3" "$(ratio "$2" "$3")"; }

# The other boards, side by side with this one: boot to user space and one rank's
# power cycle through DAMON_ACMA (tests/bench/guest/50-rank-power-cycle).
for a in "${also[@]}"; do
	b=${a%%:*}
	runner_cleanup
	acpi_tables=
	for t in $("$boardgen" needs "$top/boards/$b/board.hw"); do
		case $t in mpst|ssdt) acpi_tables="$acpi_tables $top/build/$b/$t.aml" ;; esac
	done
	CONFIG_GUEST_CMDLINE="$base_cmdline acma.bench=${a#*:}"
	say
	bench_board "$top/build/$b/bench" "$top/boards/$b/board.hw" \
		"$(board_kernel "$top/boards/$b/board.hw")" "$top/build/$b/initramfs.cpio.gz"
	other=$out
	[ -z "$(fig energy_acma_mj 3)" ] || day_table
	[ -n "$(fig rank_off_ms 3)" ] || { problems; continue; }
	say
	say "Rank power cycle, $main_name (accel $main_accel) beside $BOARD_NAME (accel $accel)"
	printf '%-48s %14s %14s %8s\n' "" "$main_name" "$BOARD_NAME" "ratio"
	row "QEMU start to user space (ms)" "$(cat "$main_out/boot_ms")" "$(cat "$other/boot_ms")"
	row "one rank off: max_mem lowered -> rank off (ms)" \
		"$(col "$main_out" rank_off_ms 3)" "$(col "$other" rank_off_ms 3)"
	row "  firmware: powering-off (ms)" "$(col "$main_out" rank_off_ms 5)" "$(col "$other" rank_off_ms 5)"
	row "back on: min_mem raised -> blocks online (ms)" \
		"$(col "$main_out" rank_on_ms 3)" "$(col "$other" rank_on_ms 3)"
	row "  firmware: powering-on (ms)" "$(col "$main_out" rank_on_ms 5)" "$(col "$other" rank_on_ms 5)"
	out=$other
	problems
done
say
say "Figures: $main_out/bench.txt; done in $(($(date +%s) - t0)) s"
