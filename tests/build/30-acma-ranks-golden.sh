#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# acma-ranks against ipmitool answers recorded from a real BMC (tests/tools/acma-ranks,
# see its README.md): for every recorded scenario the table, the JSON, the messages
# and the exit code are byte for byte the expected ones. Also: --help explains every
# column and exit code, and usage errors exit 2.
top=$(cd "$(dirname "$0")/../.." && pwd)
tool=$top/build/host/acma-ranks
fixtures=$top/tests/tools/acma-ranks
[ -x "$tool" ] || { echo "SKIP: build/host/acma-ranks not built"; exit 4; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
failed=0

# golden SCENARIO MODE EXPECTED [OPTION]: one replay, compared with the expected files.
golden() {
	local dir=$fixtures/$1 rc
	# shellcheck disable=SC2046
	"$tool" $(cat "$dir/args") --replay "$dir" $4 > "$tmp/out" 2> "$tmp/err"
	rc=$?
	if cmp -s "$tmp/out" "$dir/$3" && cmp -s "$tmp/err" "$dir/expected.err" &&
	   [ "$rc" = "$(cat "$dir/expected.rc")" ]; then
		echo "ok: $1 $2: exit $rc"
		return
	fi
	echo "FAIL: $1 $2: exit $rc, want $(cat "$dir/expected.rc")"
	diff -u "$dir/$3" "$tmp/out"
	diff -u "$dir/expected.err" "$tmp/err"
	failed=1
}

for dir in "$fixtures"/*/; do
	scenario=$(basename "$dir")
	golden "$scenario" text expected.txt
	golden "$scenario" json expected.json --json
	if [ -s "$dir/expected.json" ] && ! jq -e . "$dir/expected.json" > /dev/null; then
		echo "FAIL: $scenario: expected.json is not valid JSON"
		failed=1
	fi
done

help=$("$tool" --help) || { echo "FAIL: --help exits $?"; failed=1; }
for word in $(head -n 1 "$fixtures/all-on/expected.txt") 'DRAM power now' 'All ranks on' \
	'Saving vs all ranks on' '0  all good' '1  partial' '2  usage' '3  BMC unreachable' \
	'4  login refused' '5  ipmitool missing' '--replay DIR' '--record DIR'; do
	echo "$help" | grep -qF -- "$word" || { echo "FAIL: --help does not explain '$word'"; failed=1; }
done
echo "ok: --help explains every column, summary line and exit code"

# usage ARGS...: exit 2 and one line on stderr.
usage() {
	"$tool" "$@" > /dev/null 2> "$tmp/err"
	local rc=$?
	if [ $rc = 2 ] && [ "$(wc -l < "$tmp/err")" = 1 ]; then
		echo "ok: usage error '$*': $(cat "$tmp/err")"
	else
		echo "FAIL: '$*': exit $rc, stderr: $(cat "$tmp/err")"
		failed=1
	fi
}
usage -H bmc -U monitor
usage -H bmc -U monitor -P x --bogus
usage -H bmc -U monitor -P x -p 70000
usage -H bmc -U monitor -P x --replay "$tmp" --record "$tmp"

"$tool" -H bmc -U monitor -P x --replay "$tmp" > /dev/null 2> "$tmp/err"
rc=$?
[ $rc = 5 ] && grep -q "ipmitool.rec" "$tmp/err" ||
	{ echo "FAIL: replay without a recording: exit $rc, $(cat "$tmp/err")"; failed=1; }
echo "ok: replay without a recording: exit $rc"
exit $failed
