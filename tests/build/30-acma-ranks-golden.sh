#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# acma-ranks against ipmitool answers recorded from a real BMC (tests/tools/acma-ranks,
# see its README.md): for every recorded scenario the table, the JSON, the messages
# and the exit code are byte for byte the expected ones. Also: --help explains every
# column, option and exit code; -o picks and orders the columns of the text and the
# JSON; usage errors exit 2 (a bad -C, -o, two passwords, -E without IPMI_PASSWORD, a
# password file that cannot be read). Every JSON, expected and printed, with -o too, is
# valid against tools/schemas/acma-ranks.schema.json, whose members are the JSON's, in
# its order; a JSON with a wrong type, an unknown or a missing member is not.
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

schema=acma-ranks.schema.json
validated=0
for dir in "$fixtures"/*/; do
	scenario=$(basename "$dir")
	golden "$scenario" text expected.txt
	golden "$scenario" json expected.json --json
	if [ -s "$dir/expected.json" ] && ! jq -e . "$dir/expected.json" > /dev/null; then
		echo "FAIL: $scenario: expected.json is not valid JSON"
		failed=1
	fi
	cp "$tmp/out" "$tmp/$scenario.json"
	schema_check "$scenario json: expected.json and the output" $schema \
		"$fixtures/$scenario/expected.json" "$tmp/$scenario.json"
	validated=$((validated + 1))
	# a BMC not read at all: the JSON says why, as the exit status and stderr do
	rc=$(cat "$dir/expected.rc")
	if [ "$rc" -ge 3 ]; then
		got=$(jq -r '[.error.exit, .ranks, .dram_power_mw, .saving_mw] | map(tostring) | join(" ")' "$tmp/out")
		msg=$(jq -r .error.message "$tmp/out")
		if [ "$got" = "$rc null null null" ] && [ "acma-ranks: $msg" = "$(cat "$tmp/err")" ]; then
			echo "ok: $scenario --json: error {exit $rc, the message stderr gives}, every value null"
		else
			echo "FAIL: $scenario --json: error/values '$got', message '$msg' (exit $rc, stderr $(cat "$tmp/err"))"
			failed=1
		fi
	fi
done
[ $validated -ge 7 ] || fail "schema" "only $validated scenarios print JSON to check"

# The schema's members are those of the JSON, in its order.
want=$(jq -c '[(.properties | keys_unsorted), (.["$defs"].rank.properties | keys_unsorted)]' \
	"$top/tools/schemas/$schema")
got=$(jq -c '[keys_unsorted, (.ranks[0] | keys_unsorted)]' "$fixtures/all-on/expected.json")
if [ "$want" = "$got" ]; then
	ok "tools/schemas/$schema: the members of the JSON, in its order: $got"
else
	fail "tools/schemas/$schema" "members $want, the JSON's $got"
fi

# Negative checks: the schema does reject what the tool must not print.
f=$fixtures/all-on/expected.json
schema_rejects "a string for a number" $schema "$f" '.ranks[0].power_mw = "1350"' '$.ranks[0].power_mw'
schema_rejects "an unknown member of a rank" $schema "$f" '.ranks[1].voltage_mv = 1200' '$.ranks[1]'
schema_rejects "an unknown member (the old W name)" $schema "$f" '.dram_power_w = 11' '$'
schema_rejects "a missing member" $schema "$f" 'del(.saving_mw)' '$'
schema_rejects "an error whose exit status is not 3, 4 or 5" $schema "$f" '.error = {"exit": 1, "message": "x"}' '$.error'
schema_rejects "a time not ISO 8601 UTC" $schema "$f" '.ranks[2].since = "2026-12-05 08:00:40"' '$.ranks[2].since'

# shellcheck disable=SC2046
help_explains $(head -n 1 "$fixtures/all-on/expected.txt") 'DRAM power now' 'All ranks on' \
	'Saving vs all ranks on' '0  all good' '1  partial' '2  usage' '3  BMC unreachable' \
	'4  login refused' '5  ipmitool missing' '--replay DIR' '--record DIR' '-C SUITE' \
	'-f FILE' '-E ' '-P PASSWORD' '--output COLUMNS' '--list-columns' '-V, --version' \
	'-I INTERFACE' 'open: in-band' '-d N'

# -o: the columns asked for, in that order, in the text and the JSON.
dir=$fixtures/ranks-off
# shellcheck disable=SC2046
"$tool" $(cat "$dir/args") --replay "$dir" -o state,RANK,power > "$tmp/out" 2> "$tmp/err"
rc=$?
want=$(awk 'NR == 1 { print "STATE  RANK   POWER"; next } NF > 3 && $1 ~ /^[0-9]+$/ { printf "%-5s  %4s  %6s\n", $4, $1, $(NF - 1) " " $NF; next } { print }' "$dir/expected.txt")
if [ $rc = 0 ] && [ "$(cat "$tmp/out")" = "$want" ] && [ ! -s "$tmp/err" ]; then
	echo "ok: -o state,RANK,power: those columns in that order, the lines under the table kept"
else
	echo "FAIL: -o state,RANK,power: exit $rc"; diff <(echo "$want") "$tmp/out"; failed=1
fi
# shellcheck disable=SC2046
"$tool" $(cat "$dir/args") --replay "$dir" --json -o rank,power > "$tmp/out"
got=$(jq -c '[.ranks[0], .ranks[2], .saving_mw]' "$tmp/out")
if [ "$got" = '[{"rank":0,"power_mw":1350},{"rank":2,"power_mw":0},2700]' ]; then
	echo "ok: --json -o rank,power: $got"
else
	echo "FAIL: --json -o rank,power: $got"; failed=1
fi
schema_check "--json -o rank,power" $schema "$tmp/out"
if [ "$("$tool" --list-columns)" = RANK,DIMM,RANGES,STATE,SINCE,POWER ]; then
	echo "ok: --list-columns: $("$tool" --list-columns)"
else
	echo "FAIL: --list-columns: $("$tool" --list-columns)"; failed=1
fi

usage_error 2 -H bmc -U monitor
usage_error 2 -H bmc -U monitor -P x --bogus
usage_error 2 -H bmc -U monitor -P x -p 70000
usage_error 2 -H bmc -U monitor -P x --replay "$tmp" --record "$tmp"
usage_error 2 -H bmc -U monitor -P x -C 18
usage_error 2 -H bmc -U monitor -P x -C -1
usage_error 2 -H bmc -U monitor -P x -o rank,bogus
usage_error 2 -H bmc -U monitor -P x -o rank,rank
usage_error 2 -H bmc -U monitor -P x -f "$tmp/password"
usage_error 2 -H bmc -U monitor -f "$tmp/none"
unset IPMI_PASSWORD
usage_error 2 -H bmc -U monitor -E
# -I open: in-band only, the network's options refused; -d with it only
usage_error 2 -I open -H bmc
usage_error 2 -I open -U monitor
usage_error 2 -I open -P x
usage_error 2 -I open --replay "$tmp"
usage_error 2 -I open -d 256
usage_error 2 -I ssh
usage_error 2 -H bmc -U monitor -P x -d 0

"$tool" -H bmc -U monitor -P x --replay "$tmp" > /dev/null 2> "$tmp/err"
rc=$?
[ $rc = 5 ] && grep -q "ipmitool.rec" "$tmp/err" ||
	{ echo "FAIL: replay without a recording: exit $rc, $(cat "$tmp/err")"; failed=1; }
echo "ok: replay without a recording: exit $rc"
exit $failed
