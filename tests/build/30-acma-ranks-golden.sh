#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# acma-ranks against ipmitool answers recorded from a real BMC (tests/tools/acma-ranks,
# see its README.md): for every recorded scenario the table, the JSON, the messages
# and the exit code are byte for byte the expected ones. Also: --help explains every
# column and exit code, and usage errors exit 2.
top=$(cd "$(dirname "$0")/../.." && pwd)
. "$top/tests/tools/lib.sh"
golden_setup acma-ranks

# golden SCENARIO MODE EXPECTED [OPTION]: one replay, compared with the expected files.
golden() {
	local dir=$fixtures/$1
	# shellcheck disable=SC2046
	"$tool" $(cat "$dir/args") --replay "$dir" $4 > "$tmp/out" 2> "$tmp/err"
	golden_check "$1 $2" "$dir" "$3" $?
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

# shellcheck disable=SC2046
help_explains $(head -n 1 "$fixtures/all-on/expected.txt") 'DRAM power now' 'All ranks on' \
	'Saving vs all ranks on' '0  all good' '1  partial' '2  usage' '3  BMC unreachable' \
	'4  login refused' '5  ipmitool missing' '--replay DIR' '--record DIR'

usage_error 2 -H bmc -U monitor
usage_error 2 -H bmc -U monitor -P x --bogus
usage_error 2 -H bmc -U monitor -P x -p 70000
usage_error 2 -H bmc -U monitor -P x --replay "$tmp" --record "$tmp"

"$tool" -H bmc -U monitor -P x --replay "$tmp" > /dev/null 2> "$tmp/err"
rc=$?
[ $rc = 5 ] && grep -q "ipmitool.rec" "$tmp/err" ||
	{ echo "FAIL: replay without a recording: exit $rc, $(cat "$tmp/err")"; failed=1; }
echo "ok: replay without a recording: exit $rc"
exit $failed
