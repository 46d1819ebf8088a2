#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# acmactl status --format=openmetrics and --format=prometheus on the sysfs trees of
# acmactl's tests (tests/tools/acmactl, see its README.md): for every tree the output,
# the messages and the exit code are byte for byte the expected ones; the OpenMetrics
# parses with the prometheus_client OpenMetrics parser (strict: # EOF, UNIT suffixes,
# StateSet values, counter names) and the Prometheus text with promtool check metrics
# (Prometheus' own parser and linter), both silent; both carry the same samples; the
# figures agree with the JSON of the same tree (memory, power, energy, states).
# --output-file replaces the file whole (no temporary file left, mode from the umask),
# leaves it as it was when DAMON_ACMA is missing, and fails with exit 3 on a directory
# it cannot write. (56-acmactl-textfile.sh has node_exporter read the files.)
top=$(cd "$(dirname "$0")/../.." && pwd)
. "$top/tests/tools/lib.sh"
golden_setup acmactl
# Debian's python3, whatever python3 comes first in PATH: it has python3-prometheus-client.
py=/usr/bin/python3

missing=
command -v promtool > /dev/null || missing="$missing promtool (Debian package prometheus)"
"$py" -c 'import prometheus_client.openmetrics.parser' 2> /dev/null ||
	missing="$missing prometheus_client (Debian package python3-prometheus-client)"
if [ -n "$missing" ]; then
	echo "SKIP: not installed:$missing; run make deps"
	exit 4
fi

# om_parse FILE: parse FILE as OpenMetrics; print "FAMILY TYPE SAMPLES" lines.
om_parse() {
	"$py" - "$1" <<'EOF'
import sys
from prometheus_client.openmetrics.parser import text_string_to_metric_families
with open(sys.argv[1]) as f:
    for fam in text_string_to_metric_families(f.read()):
        print(fam.name, fam.type, len(fam.samples))
EOF
}

# samples FILE: the sample lines, sorted.
samples() {
	grep -v '^#' "$1" | sort
}

# value FILE SAMPLE: the value of the sample line that starts with SAMPLE and a blank.
value() {
	awk -v s="$2" 'index($0, s " ") == 1 { print $2 }' "$1"
}

for dir in "$fixtures"/*/; do
	tree=$(basename "$dir")
	"$tool" --sysroot "$dir/root" status --format=openmetrics > "$tmp/out" 2> "$tmp/err"
	golden_check "$tree openmetrics" "$dir" expected.openmetrics $? expected-metrics.err
	cp "$tmp/out" "$tmp/om"
	"$tool" --sysroot "$dir/root" status --format=prometheus > "$tmp/out" 2> "$tmp/err"
	golden_check "$tree prometheus" "$dir" expected.prom $? expected-metrics.err
	cp "$tmp/out" "$tmp/prom"

	if om_parse "$tmp/om" > "$tmp/families" 2> "$tmp/parse.err"; then
		ok "$tree: the OpenMetrics parser reads $(wc -l < "$tmp/families") families, $(awk '{ n += $3 } END { print n }' "$tmp/families") samples"
	else
		fail "$tree: OpenMetrics parser" "$(tail -n 1 "$tmp/parse.err")"
	fi
	if promtool check metrics < "$tmp/prom" > "$tmp/lint" 2>&1 && [ ! -s "$tmp/lint" ]; then
		ok "$tree: promtool check metrics: no finding"
	else
		fail "$tree: promtool check metrics" "$(cat "$tmp/lint")"
	fi
	if [ "$(samples "$tmp/om")" = "$(samples "$tmp/prom")" ]; then
		ok "$tree: both formats carry the same $(samples "$tmp/om" | wc -l) samples"
	else
		fail "$tree: samples" "the formats differ: $(diff <(samples "$tmp/om") <(samples "$tmp/prom") | head -n 4)"
	fi
	[ "$(tail -n 1 "$tmp/om")" = "# EOF" ] || fail "$tree" "the OpenMetrics does not end in # EOF"
	grep '^#' "$tmp/om" | grep -qv '^# \(HELP \|TYPE \|UNIT \|EOF$\)' &&
		fail "$tree" "lines other than HELP, TYPE, UNIT and EOF start with #"
done

# The figures against the JSON of the same tree (whole J and mW there).
"$tool" --sysroot "$fixtures/scaling-down/root" status --json > "$tmp/json"
om=$fixtures/scaling-down/expected.openmetrics
j() { jq -r "$1" "$tmp/json"; }
bad=
[ "$(value "$om" acma_memory_bytes)" = "$(j .mem_bytes)" ] || bad="$bad memory;"
[ "$(value "$om" acma_memory_removed_bytes)" = "$(j .removed_bytes)" ] || bad="$bad removed;"
[ "$(value "$om" acma_memory_owned_bytes)" = "$(j .owned_bytes)" ] || bad="$bad owned;"
[ "$(awk -v w="$(value "$om" acma_dram_power_watts)" 'BEGIN { printf "%d", w * 1000 + 0.5 }')" = \
	"$(j .dram_power_mw)" ] || bad="$bad DRAM power;"
[ "$(awk -v e="$(value "$om" acma_dram_energy_saved_joules_total)" 'BEGIN { printf "%d", e }')" = \
	"$(j .energy_saved_j)" ] || bad="$bad energy saved;"
[ "$(value "$om" 'acma_rank_off_seconds_total{rank="6"}')" = \
	"$(j '.ranks[] | select(.rank == 6) | .time_off_ms / 1000')" ] || bad="$bad time off;"
[ "$(value "$om" 'acma_rank_transitions_total{rank="7"}')" = \
	"$(j '.ranks[] | select(.rank == 7) | .transitions')" ] || bad="$bad transitions;"
[ "$(value "$om" 'acma_rank_errors_total{rank="2"}')" = 1 ] || bad="$bad errors;"
# each rank in exactly one state, the one the JSON says
states=$(awk -F'"' '/^acma_rank_state\{/ && / 1$/ { print $2, $4 }' "$om" | tr '\n' ' ')
want=$(j '.ranks[] | select(.rank != null) | "\(.rank) \(.state)"' | tr '\n' ' ')
[ "$states" = "$want" ] || bad="$bad states '$states', want '$want';"
[ "$(grep -c '^acma_rank_state{' "$om")" = $((8 * 5)) ] || bad="$bad not 5 states a rank;"
[ "$(value "$om" acma_memory_pressure_ratio)" = 0.000212 ] || bad="$bad pressure;"
if [ -z "$bad" ]; then
	ok "scaling-down: the metrics say what the JSON says (memory, DRAM power, energy, time off, states)"
else
	fail "scaling-down: metrics against the JSON" "$bad"
fi

# --help names every sample and the options.
mapfile -t words < <(grep -v '^#' "$fixtures/scaling-down/expected.prom" | sed 's/[{ ].*//' | sort -u)
help_explains "${words[@]}" '--format FORMAT' openmetrics prometheus '--output-file FILE'

# --output-file: the file replaced whole.
out=$tmp/textfile/acma.prom
mkdir "$tmp/textfile"
echo old > "$out"
(umask 022; "$tool" --sysroot "$fixtures/scaling-down/root" status --format=prometheus \
	--output-file "$out" > "$tmp/stdout" 2> "$tmp/err")
rc=$?
if [ $rc = 0 ] && cmp -s "$out" "$fixtures/scaling-down/expected.prom" && [ ! -s "$tmp/stdout" ] &&
   [ ! -s "$tmp/err" ] && [ "$(stat -c %a "$out")" = 644 ] &&
   [ "$(ls -A "$tmp/textfile")" = acma.prom ]; then
	ok "--output-file: the file replaced, mode 644, nothing on stdout, no temporary file left"
else
	fail "--output-file" "exit $rc, mode $(stat -c %a "$out"), files: $(ls -A "$tmp/textfile"), $(cat "$tmp/err")"
fi
mkdir -p "$tmp/empty/sys"
"$tool" --sysroot "$tmp/empty" status --format=prometheus --output-file "$out" 2> /dev/null
rc=$?
if [ $rc = 4 ] && cmp -s "$out" "$fixtures/scaling-down/expected.prom" &&
   [ "$(ls -A "$tmp/textfile")" = acma.prom ]; then
	ok "--output-file without DAMON_ACMA: exit 4, the file left as it was"
else
	fail "--output-file without DAMON_ACMA" "exit $rc, files: $(ls -A "$tmp/textfile")"
fi
"$tool" --sysroot "$fixtures/broken/root" status --format=prometheus --output-file "$out" 2> /dev/null
rc=$?
if [ $rc = 1 ] && cmp -s "$out" "$fixtures/broken/expected.prom"; then
	ok "--output-file with files unread: exit 1, what was read written"
else
	fail "--output-file, broken tree" "exit $rc"
fi
"$tool" --sysroot "$fixtures/scaling-down/root" status --output-file "$tmp/none/acma.prom" 2> "$tmp/err"
rc=$?
if [ $rc = 3 ] && grep -qx "acmactl: cannot write $tmp/none/acma.prom: No such file or directory" "$tmp/err"; then
	ok "--output-file into a missing directory: exit 3, $(cat "$tmp/err")"
else
	fail "--output-file into a missing directory" "exit $rc, $(cat "$tmp/err")"
fi

exit $failed
