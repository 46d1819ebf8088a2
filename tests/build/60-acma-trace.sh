#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# acma-trace against the sysfs trees of acmactl's tests (tests/tools/acmactl/*/root, see
# tests/tools/acma-trace/README.md): for every tree, three rows 10 ms apart are, but for
# their times, byte for byte the expected CSV, with the expected messages (each said
# once) and exit code, and the times are on the grid; a VM guest's rank columns are
# empty. Also: -d and -n stop it, -o writes the same CSV, SIGTERM and SIGINT stop it
# with exit 0 and whole rows, a CSV that cannot be written exits 3, usage errors exit 2,
# a kernel without DAMON_ACMA exits 4, --help explains every column and exit code.
# Then scripts/plot.sh draws a trace and a VM guest's (skipped, said, without gnuplot)
# and refuses what is not a trace.
top=$(cd "$(dirname "$0")/../.." && pwd)
. "$top/tests/tools/lib.sh"
golden_setup acma-trace
trees=$top/tests/tools/acmactl

# ok WHAT | fail WHAT WHY: one verdict line.

# untimed CSV: the CSV with T for the time of each row, into $tmp/out.
untimed() {
	sed '2,$ s/^[0-9]*\.[0-9]\{3\},/T,/' "$1" > "$tmp/out"
}

# on_grid CSV STEP_MS: the times have 3 decimals and rise, row k at k x STEP_MS or later.
on_grid() {
	awk -F, -v step="$2" '
		NR == 1 { next }
		$1 !~ /^[0-9]+\.[0-9][0-9][0-9]$/ || $1 * 1000 < (NR - 2) * step ||
		(NR > 2 && $1 + 0 <= prev) { bad = 1 }
		{ prev = $1 + 0 }
		END { exit bad || NR < 2 }' "$1"
}

# rows CSV: how many rows under the header.
rows() {
	echo $(($(wc -l < "$1") - 1))
}

for dir in "$trees"/*/; do
	tree=$(basename "$dir")
	if [ ! -f "$fixtures/$tree/expected.csv" ]; then
		fail "$tree" "no tests/tools/acma-trace/$tree/expected.{csv,err,rc}"
		continue
	fi
	"$tool" --sysroot "$dir/root" -n 3 -i 10ms > "$tmp/csv" 2> "$tmp/err"
	rc=$?
	untimed "$tmp/csv"
	golden_check "$tree: 3 rows 10 ms apart" "$fixtures/$tree" expected.csv $rc
	times=$(cut -d, -f1 "$tmp/csv" | tail -n +2 | tr '\n' ' ')
	if on_grid "$tmp/csv" 10; then
		ok "$tree: times on the 10 ms grid: $times"
	else
		fail "$tree: times" "not on the 10 ms grid: $times"
	fi
done

# A VM guest: no dram_power, the rank columns empty (golden above too), no message.
"$tool" --sysroot "$trees/vm-guest/root" -n 2 -i 10ms > "$tmp/csv" 2> "$tmp/err"
if awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
	    $c["ranks_on"] $c["ranks_total"] $c["dram_mw"] $c["all_on_mw"] != "" ||
	    $c["mem_bytes"] == "" { bad = 1 } END { exit bad }' "$tmp/csv" && [ ! -s "$tmp/err" ]; then
	ok "vm-guest: empty rank columns, nothing said"
else
	fail "vm-guest" "rank columns or messages: $(cat "$tmp/csv" "$tmp/err")"
fi

# How it stops: -d, -n, whichever first.
root=$trees/scaling-down/root
stops() {
	local want=$1
	shift
	"$tool" --sysroot "$root" "$@" > "$tmp/csv" 2> "$tmp/err"
	rc=$?
	if [ $rc = 0 ] && [ "$(rows "$tmp/csv")" = "$want" ] && [ ! -s "$tmp/err" ]; then
		ok "$*: $want rows"
	else
		fail "$*" "exit $rc, $(rows "$tmp/csv") rows, want $want: $(cat "$tmp/err")"
	fi
}
stops 1 -d 0s
stops 1 -d 100ms -i 1s
stops 2 -n 2 -d 10s -i 10ms
stops 3 -n 3 -d 10s -i 10ms
"$tool" --sysroot "$root" -d 50ms -i 10ms > "$tmp/csv" 2> "$tmp/err"
rc=$?
n=$(rows "$tmp/csv")
# 0, 10, ... 50 ms: 6 rows, fewer where a busy machine made it late
if [ $rc = 0 ] && [ "$n" -ge 1 ] && [ "$n" -le 6 ] && on_grid "$tmp/csv" 10; then
	ok "-d 50ms -i 10ms: $n rows, times $(cut -d, -f1 "$tmp/csv" | tail -n +2 | tr '\n' ' ')"
else
	fail "-d 50ms -i 10ms" "exit $rc, $n rows: $(cat "$tmp/csv" "$tmp/err")"
fi

# -o FILE: the same CSV in FILE, nothing on stdout.
"$tool" --sysroot "$root" -n 3 -i 10ms -o "$tmp/o.csv" > "$tmp/stdout" 2> "$tmp/err"
rc=$?
untimed "$tmp/o.csv"
if [ $rc = 0 ] && [ ! -s "$tmp/stdout" ] && cmp -s "$tmp/out" "$fixtures/scaling-down/expected.csv"; then
	ok "-o FILE: the CSV in FILE"
else
	fail "-o FILE" "exit $rc, stdout $(wc -c < "$tmp/stdout") bytes, $(diff "$fixtures/scaling-down/expected.csv" "$tmp/out")"
fi

# SIGTERM and SIGINT, sent once a few rows are out: exit 0, header and whole rows.
# Job control (set -m) keeps SIGINT from being ignored, as it is for background jobs.
stop_with() {
	local sig=$1 pid rc
	shift
	rm -f "$tmp/sig.csv"
	set -m
	"$tool" --sysroot "$root" -i 20ms "$@" -o "$tmp/sig.csv" 2> "$tmp/err" &
	pid=$!
	set +m
	for _ in $(seq 100); do
		[ -f "$tmp/sig.csv" ] && [ "$(rows "$tmp/sig.csv")" -ge 3 ] && break
		sleep 0.05
	done
	kill -"$sig" "$pid"
	wait "$pid"
	rc=$?
	untimed "$tmp/sig.csv"
	if [ $rc = 0 ] && [ "$(rows "$tmp/sig.csv")" -ge 3 ] && [ ! -s "$tmp/err" ] &&
	   [ "$(tail -c 1 "$tmp/sig.csv" | od -An -c | tr -d ' ')" = '\n' ] &&
	   ! grep -qvxFf "$fixtures/scaling-down/expected.csv" "$tmp/out"; then
		ok "SIG$sig${1:+ ($*)}: exit 0, header and $(rows "$tmp/sig.csv") whole rows"
	else
		fail "SIG$sig${1:+ ($*)}" "exit $rc, $(cat "$tmp/sig.csv" "$tmp/err")"
	fi
}
stop_with TERM
stop_with INT
stop_with TERM --on-change

# --on-change in a captured tree: its state files are plain files, which never
# wake poll(2) for POLLPRI, so the rows are the grid's, as without it.
"$tool" --sysroot "$root" -e -n 3 -i 10ms > "$tmp/csv" 2> "$tmp/err"
rc=$?
times=$(cut -d, -f1 "$tmp/csv" | tail -n +2 | tr '\n' ' ')
untimed "$tmp/csv"
if [ $rc = 0 ] && [ ! -s "$tmp/err" ] && [ "$(rows "$tmp/csv")" = 3 ] &&
   ! grep -qvxFf "$fixtures/scaling-down/expected.csv" "$tmp/out"; then
	ok "-e in a captured tree: the grid's 3 rows (times $times), nothing said"
else
	fail "-e in a captured tree" "exit $rc, $(cat "$tmp/csv" "$tmp/err")"
fi

# A CSV that cannot be written.
for out in /dev/full "$tmp/none/trace.csv"; do
	"$tool" --sysroot "$root" -n 1 -o "$out" 2> "$tmp/err"
	rc=$?
	if [ $rc = 3 ] && grep -q "^acma-trace: cannot write $out: " "$tmp/err"; then
		ok "-o $out: exit 3, $(cat "$tmp/err")"
	else
		fail "-o $out" "exit $rc, want 2: $(cat "$tmp/err")"
	fi
done

# shellcheck disable=SC2046
help_explains $(head -n 1 "$fixtures/scaling-down/expected.csv" | tr , ' ') '0  success' \
	'2  usage' '3  failure' '4  no DAMON_ACMA' '--interval INTERVAL' '--duration DURATION' \
	'--samples N' '--on-change' '--output FILE' '--sysroot DIR' '-V, --version'

for bad in "-i 0ms" "-i 10" "-i 1x" "-i -1s" "-i" "-d 5" "-d 1y" "-n 0" "-n 2x" "-n -1" \
	   "--bogus" "extra" "--sysroot $tmp/none"; do
	# shellcheck disable=SC2086
	usage_error 2 $bad
done

# A kernel without DAMON_ACMA.
mkdir -p "$tmp/empty/sys"
"$tool" --sysroot "$tmp/empty" -n 1 > "$tmp/out" 2> "$tmp/err"
rc=$?
if [ $rc = 4 ] && [ ! -s "$tmp/out" ] &&
   [ "$(cat "$tmp/err")" = 'acma-trace: no DAMON_ACMA in this kernel (no /sys/module/damon_acma)' ]; then
	ok "without DAMON_ACMA: exit 4, no CSV"
else
	fail "without DAMON_ACMA" "exit $rc, $(cat "$tmp/out" "$tmp/err")"
fi

# scripts/plot.sh: what is not a trace is refused, with or without gnuplot.
plot=$top/scripts/plot.sh
refused() {
	local what=$1 csv=$2 rc
	"$plot" "$csv" "$tmp/refused.png" 2> "$tmp/err"
	rc=$?
	if [ $rc = 1 ] && [ "$(wc -l < "$tmp/err")" = 1 ] && [ ! -e "$tmp/refused.png" ]; then
		ok "plot.sh refuses $what: $(cat "$tmp/err")"
	else
		fail "plot.sh $what" "exit $rc, want 1: $(cat "$tmp/err")"
	fi
}
head -n 1 "$fixtures/plot/trace.csv" > "$tmp/header.csv"
printf 'a,b\n1,2\n' > "$tmp/other.csv"
refused "a missing CSV" "$tmp/none.csv"
refused "a CSV without rows" "$tmp/header.csv"
refused "a CSV of other columns" "$tmp/other.csv"

# drawn WHAT CSV: plot.sh makes a PNG of it (the PNG signature, then more).
drawn() {
	local what=$1 csv=$2 rc
	"$plot" "$csv" "$tmp/trace.png" "acma-trace test: $what" 2> "$tmp/err"
	rc=$?
	if [ $rc = 0 ] && [ "$(head -c 8 "$tmp/trace.png" | od -An -tx1 | tr -d ' ')" = 89504e470d0a1a0a ] &&
	   [ "$(wc -c < "$tmp/trace.png")" -gt 1000 ]; then
		ok "plot.sh draws $what: a PNG of $(wc -c < "$tmp/trace.png") bytes"
	else
		fail "plot.sh $what" "exit $rc: $(cat "$tmp/err")"
	fi
	rm -f "$tmp/trace.png"
}
if command -v gnuplot > /dev/null; then
	drawn "a scale-down and a workload" "$fixtures/plot/trace.csv"
	# a VM guest's trace, as read from a serial port: no rank values, CR LF
	awk -F, -v OFS=, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; print; next }
		{ $c["ranks_on"] = $c["ranks_total"] = $c["dram_mw"] = $c["all_on_mw"] = ""; print }' \
		"$fixtures/plot/trace.csv" | sed 's/$/\r/' > "$tmp/vm.csv"
	drawn "a VM guest's trace with CR LF" "$tmp/vm.csv"
else
	echo "skip: plot.sh drawing: no gnuplot (make deps installs gnuplot-nox)"
fi
exit $failed
