#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# acmactl against sysfs trees written by hand (tests/tools/acmactl, see its README.md):
# for every tree, status's table, JSON, messages and exit code are byte for byte the
# expected ones, the JSON is valid and has the same members in every tree. set runs on
# copies of the trees: the files it writes, what it says and its exit code, when it
# commits, when DAMON_ACMA is off, when the commit or a write fails, when a value is
# refused before anything is written. Also: --help explains every line, column and
# exit code, -o picks and orders the ranks table's columns (text and JSON), usage
# errors exit 2, a kernel without DAMON_ACMA exits 4. Every JSON, expected and printed,
# with -o and deferred blocks too, is valid against tools/schemas/acmactl-status.schema.json,
# whose members are the JSON's, in its order; a JSON with a wrong type, an unknown
# member or an unknown reason is not.
top=$(cd "$(dirname "$0")/../.." && pwd)
. "$top/tests/tools/lib.sh"
golden_setup acmactl

# golden TREE MODE EXPECTED [OPTION]: status of one tree, compared with the expected files.
golden() {
	local dir=$fixtures/$1
	"$tool" --sysroot "$dir/root" status ${4:+"$4"} > "$tmp/out" 2> "$tmp/err"
	golden_check "status $1 $2" "$dir" "$3" $?
}

members() {
	jq -c '[keys_unsorted, (.schemes[0] | keys_unsorted), (.ranks[0] | keys_unsorted)]' "$1"
}

schema=acmactl-status.schema.json
for dir in "$fixtures"/*/; do
	tree=$(basename "$dir")
	golden "$tree" text expected.txt
	golden "$tree" json expected.json --json
	cp "$tmp/out" "$tmp/$tree.json"
	schema_check "status $tree json: expected.json and the output" $schema \
		"$fixtures/$tree/expected.json" "$tmp/$tree.json"
	if ! jq -e . "$dir/expected.json" > /dev/null; then
		echo "FAIL: $tree: expected.json is not valid JSON"
		failed=1
	elif [ "$(members "$dir/expected.json")" != "$(members "$fixtures/scaling-down/expected.json")" ]; then
		echo "FAIL: $tree: the JSON members differ from scaling-down's: $(members "$dir/expected.json")"
		failed=1
	fi
done
echo "ok: every expected.json is valid JSON with the same members"
want=$(jq -c '[(.properties | keys_unsorted), (.["$defs"].scheme.properties | keys_unsorted),
	(.["$defs"].rank.properties | keys_unsorted)]' "$top/tools/schemas/$schema")
if [ "$want" = "$(members "$fixtures/scaling-down/expected.json")" ]; then
	ok "tools/schemas/$schema: the members of the JSON, in its order"
else
	fail "tools/schemas/$schema" "members $want, the JSON's $(members "$fixtures/scaling-down/expected.json")"
fi

# Negative checks: the schema does reject what the tool must not print.
f=$fixtures/scaling-down/expected.json
schema_rejects "a string for a number" $schema "$f" '.ranks[1].power_mw = "1350"' '$.ranks[1].power_mw'
schema_rejects "an unknown member of a rank" $schema "$f" '.ranks[2].voltage_mv = 1200' '$.ranks[2]'
schema_rejects "an unknown member" $schema "$f" '.balloon_bytes = 0' '$'
schema_rejects "an unknown power state" $schema "$f" '.ranks[5].state = "sleeping"' '$.ranks[5].state'
schema_rejects "an unknown reason to defer" $schema "$f" '.ranks[5].deferred[0].reason = "pinned"' \
	'$.ranks[5].deferred[0].reason'
schema_rejects "the schemes out of order" $schema "$f" '.schemes |= reverse' '$.schemes[0].scheme'

# --help: the status's summary lines ("Label: value") and column headers (two blanks
# apart at least), set's keys, the options and the exit codes.
mapfile -t words < <(sed -n 's/^\([A-Za-z][^:]*\):.*/\1/p' "$fixtures/scaling-down/expected.txt"
	grep -E '^(SCHEME|RANK) ' "$fixtures/scaling-down/expected.txt" | sed 's/   */\n/g')
help_explains "${words[@]}" '0  success' '1  partial' '2  usage' '3  failure' \
	'4  no DAMON_ACMA' 'min=SIZE' 'max=SIZE|all' 'pressure=TIME' 'order=N' '--sysroot DIR' \
	'--dry-run' '--json' '--output COLUMNS' '--list-columns' '-V, --version' '2  usage' '3  failure'

# -o: the ranks table's columns, in that order, in the text and the JSON; the other
# tables as they are.
"$tool" --sysroot "$fixtures/scaling-down/root" status -o state,Rank,TIME-OFF > "$tmp/out" 2> "$tmp/err"
rc=$?
# the ranks table alone (between its header and the blank line after it)
ranks_table() { sed -n '/^STATE  *RANK/,/^$/p' "$1"; }
want='STATE         RANK  TIME OFF
-                -         -
on               0   0:00:00
on               1   0:00:00
on               2   0:00:00
on               3   0:00:00
on               4   0:00:00
powering-off     5   0:00:00
off              6   0:12:34
off              7   0:13:32'
rest_want=$(sed '/^RANK /,/^$/d' "$fixtures/scaling-down/expected.txt")
rest_got=$(sed '/^STATE  *RANK/,/^$/d' "$tmp/out")
if [ $rc = 0 ] && [ "$(ranks_table "$tmp/out")" = "$want" ] && [ "$rest_got" = "$rest_want" ]; then
	echo "ok: status -o state,Rank,TIME-OFF: those columns in that order, the rest as it was"
else
	echo "FAIL: status -o state,Rank,TIME-OFF: exit $rc"; cat "$tmp/out"; failed=1
fi
"$tool" --sysroot "$fixtures/scaling-down/root" status --json -o +transitions > "$tmp/out"
schema_check "status --json -o +transitions" $schema "$tmp/out"
got=$(jq -c '[(.ranks[7] | keys_unsorted), .ranks[7].transitions, (.schemes | length)]' "$tmp/out")
if [ "$got" = '[["rank","dimm","blocks","online","offline","removed","state","power_mw","time_off_ms","saved_j","errors","last_error","deferred","transitions"],2,3]' ]; then
	echo "ok: status --json -o +transitions: the default columns and transitions: $got"
else
	echo "FAIL: status --json -o +transitions: $got"; failed=1
fi

# deferred_blocks, on copies of scaling-down (its file: memory48 in-use 17, memory49
# unmovable 52, both rank 4's). deferred: a fresh copy in $tmp/dfr; deferred_run ARGS...:
# status ARGS on it, into $rc, $tmp/out and $tmp/err.
dparams=$tmp/dfr/sys/module/damon_acma/parameters
deferred() {
	rm -rf "$tmp/dfr"
	cp -a "$fixtures/scaling-down/root" "$tmp/dfr"
}
deferred_run() {
	"$tool" --sysroot "$tmp/dfr" status "$@" > "$tmp/out" 2> "$tmp/err"
	rc=$?
}
# dcheck WHAT RC JQ WANT [ERR]: exit RC, jq JQ of the JSON gives WANT, stderr ERR.
dcheck() {
	local got
	got=$(jq -c "$3" "$tmp/out" 2> /dev/null)
	if [ "$rc" = "$2" ] && [ "$got" = "$4" ] && [ "$(cat "$tmp/err")" = "${5:-}" ]; then
		ok "deferred_blocks $1: exit $rc, $got"
	else
		fail "deferred_blocks $1" "exit $rc, want $2; $got, want $4; stderr: $(cat "$tmp/err")"
	fi
	schema_check "deferred_blocks $1: the JSON" $schema "$tmp/out"
}
deferred
rm "$dparams/deferred_blocks"
deferred_run
if [ $rc = 0 ] && [ ! -s "$tmp/err" ] &&
   [ "$(sed 's/  *none$//; s/  *48:in-use:17s,49:unmovable:52s$//; s/ *DEFERRED$//' "$fixtures/scaling-down/expected.txt")" = \
     "$(sed 's/  *none$//; s/ *DEFERRED$//' "$tmp/out")" ] &&
   [ "$(grep -c ' none$' "$tmp/out")" = 9 ]; then
	ok "deferred_blocks missing (an older kernel): every row none, exit 0, nothing on stderr"
else
	fail "deferred_blocks missing" "exit $rc, stderr: $(cat "$tmp/err"); $(cat "$tmp/out")"
fi
deferred_run --json
dcheck "missing, JSON" 0 '[.ranks[].deferred]' '[[],[],[],[],[],[],[],[],[]]'
deferred
printf 'memory48 in-use 17\nmemory49 unmov' > "$dparams/deferred_blocks"
deferred_run --json
dcheck "cut short" 1 '[.ranks[].deferred]' '[null,null,null,null,null,null,null,null,null]' \
	"acmactl: /sys/module/damon_acma/parameters/deferred_blocks: line 2: cut short (no newline): 'memory49 unmov'"
deferred_run -o rank,deferred
if [ $rc = 1 ] && [ "$(sed -n '/^RANK  DEFERRED$/,/^$/p' "$tmp/out" | grep -c '^ *[-0-9]*  -$')" = 9 ]; then
	ok "deferred_blocks cut short: - in every row of the text"
else
	fail "deferred_blocks cut short, text" "exit $rc: $(cat "$tmp/out")"
fi
printf 'memory48 in-use 17\nmemory49  unmovable 52\n' > "$dparams/deferred_blocks"
deferred_run --format=prometheus
if [ $rc = 1 ] && ! grep -q '^acma_deferred_blocks' "$tmp/out" &&
   grep -qx 'acma_read_failures 1' "$tmp/out" &&
   [ "$(cat "$tmp/err")" = "acmactl: /sys/module/damon_acma/parameters/deferred_blocks: line 2: not memoryN in-use|unmovable SECONDS: 'memory49  unmovable 52'" ]; then
	ok "deferred_blocks malformed: no acma_deferred_blocks sample, exit 1, the line said"
else
	fail "deferred_blocks malformed, metrics" "exit $rc, stderr: $(cat "$tmp/err")"
fi
# memory40 (rank 2) and memory4 (boot memory, the first row) deferred too; memory99 is
# nowhere (removed since): said, the others shown.
printf 'memory4 unmovable 960\nmemory40 in-use 120\nmemory48 in-use 17\nmemory49 unmovable 52\nmemory99 in-use 5\n' \
	> "$dparams/deferred_blocks"
deferred_run --json
dcheck "in three rows and nowhere" 1 '[.ranks[] | [.rank, (.deferred | map("\(.block):\(.reason):\(.retry_s)") | join(","))] | select(.[1] != "")]' \
	'[[null,"4:unmovable:960"],[2,"40:in-use:120"],[4,"48:in-use:17,49:unmovable:52"]]' \
	"acmactl: /sys/module/damon_acma/parameters/deferred_blocks: line 5: memory99 is in no rank and not present: 'memory99 in-use 5'"
deferred_run --format=openmetrics
if grep -qx 'acma_deferred_blocks{reason="in-use"} 3' "$tmp/out" &&
   grep -qx 'acma_deferred_blocks{reason="unmovable"} 2' "$tmp/out"; then
	ok "deferred_blocks: acma_deferred_blocks counts every line by reason"
else
	fail "deferred_blocks metrics" "$(grep '^acma_deferred' "$tmp/out")"
fi
# A rank whose blocks are unknown: its DEFERRED too; its blocks present are in the first row.
printf '44-4x\n' > "$tmp/dfr/sys/devices/system/dram_power/domain3/blocks"
printf 'memory45 in-use 30\n' > "$dparams/deferred_blocks"
deferred_run --json
dcheck "of a rank whose blocks are unread" 1 '[.ranks[] | select(.rank == null or .rank == 3) | .deferred]' \
	'[[{"block":45,"reason":"in-use","retry_s":30}],null]' \
	"acmactl: /sys/devices/system/dram_power/domain3/blocks: not a list of memory blocks: '44-4x'"
deferred
: > "$dparams/deferred_blocks"
deferred_run --json
dcheck "empty (DAMON_ACMA off, or nothing deferred)" 0 '[.ranks[].deferred | length]' '[0,0,0,0,0,0,0,0,0]'

# set: each case runs on a fresh copy of a tree, in $tmp/root.
params=$tmp/root/sys/module/damon_acma/parameters
fresh() {
	rm -rf "$tmp/root"
	cp -a "$fixtures/$1/root" "$tmp/root"
	bad=
}

# run RC [--as-user] ARGS...: acmactl set ARGS on $tmp/root exits RC.
run() {
	local want=$1 rc user=()
	shift
	if [ "$1" = --as-user ]; then
		shift
		[ "$(id -u)" = 0 ] && user=(setpriv --reuid=65534 --regid=65534 --clear-groups)
	fi
	"${user[@]}" "$tool" --sysroot "$tmp/root" set "$@" > "$tmp/out" 2> "$tmp/err"
	rc=$?
	[ $rc = "$want" ] || bad="$bad exit $rc, want $want;"
}

# says out|err: stdout or stderr is what stdin gives.
says() {
	diff -u - "$tmp/$1" > "$tmp/diff" || bad="$bad std$1 differs: $(cat "$tmp/diff");"
}

# param NAME VALUE: the parameter file holds VALUE.
param() {
	[ "$(cat "$params/$1")" = "$2" ] || bad="$bad $1 holds '$(cat "$params/$1")', want '$2';"
}

# unchanged TREE: nothing in the copy differs from the tree.
unchanged() {
	diff -r "$fixtures/$1/root" "$tmp/root" > /dev/null || bad="$bad the tree changed;"
}

verdict() {
	if [ -z "$bad" ]; then
		echo "ok: set $1"
	else
		echo "FAIL: set $1:$bad"
		failed=1
	fi
}

fresh scaling-down
run 0 min=3G max=4G pressure=2ms order=9
says out <<'EOF'
min_mem: 2147483648 -> 3221225472
max_mem: 0 -> 4294967296
mem_pressure_us: 1000 -> 2000
scale_order: 9 -> 9
commit_inputs: Y, accepted: DAMON_ACMA applies the new values at its next step
EOF
says err < /dev/null
param min_mem 3221225472
param max_mem 4294967296
param mem_pressure_us 2000
param scale_order 9
param commit_inputs Y
verdict "while DAMON_ACMA runs: writes the values, then Y to commit_inputs"

fresh idle-disabled
run 0 min=1g max=all pressure=500us
says out <<'EOF'
min_mem: 0 -> 1073741824
max_mem: 0 -> 0
mem_pressure_us: 1000 -> 500
DAMON_ACMA is off: the new values apply when it is enabled, which checks them
EOF
says err < /dev/null
param min_mem 1073741824
param mem_pressure_us 500
param commit_inputs N
verdict "while DAMON_ACMA is off: writes the values, no commit"

fresh scaling-down
run 0 --dry-run max=4096M order=10
says out <<'EOF'
would write /sys/module/damon_acma/parameters/max_mem: 4294967296 (now 0)
would write /sys/module/damon_acma/parameters/scale_order: 10 (now 9)
would write /sys/module/damon_acma/parameters/commit_inputs: Y
EOF
says err < /dev/null
unchanged scaling-down
verdict "--dry-run: says what it would write, writes nothing"

# The commit fails: a directory in place of commit_inputs. A real kernel answers a
# refused commit with EINVAL ("the kernel refused" then); that answer itself is checked
# by the guest test 82-acma-parameters.
fresh scaling-down
rm "$params/commit_inputs"
mkdir "$params/commit_inputs"
run 3 min=1G pressure=500us
says out <<'EOF'
min_mem: 2147483648 -> 1073741824
mem_pressure_us: 1000 -> 500
min_mem: 1073741824 -> 2147483648 (restored)
mem_pressure_us: 500 -> 1000 (restored)
EOF
says err <<'EOF'
acmactl: cannot write: commit_inputs = Y: Is a directory; DAMON_ACMA runs on as it was
EOF
param min_mem 2147483648
param mem_pressure_us 1000
verdict "refused commit: the old values are written back, exit 3"

# One value refused, the others written and committed: min_mem can be read but not
# written (read-only, for a user other than root, who may write anyway).
fresh scaling-down
if [ "$(id -u)" = 0 ] && ! command -v setpriv > /dev/null; then
	echo "skip: set partial write: needs setpriv to run as another user than root"
else
	chmod 755 "$tmp"
	chmod -R a+rwX "$tmp/root"
	chmod a-w "$params/min_mem"
	run 1 --as-user min=3G max=4G
	says out <<'EOF'
max_mem: 0 -> 4294967296
commit_inputs: Y, accepted: DAMON_ACMA applies the new values at its next step
EOF
	says err <<'EOF'
acmactl: cannot write: min_mem = 3221225472: Permission denied
EOF
	param min_mem 2147483648
	param max_mem 4294967296
	param commit_inputs Y
	verdict "a value refused, the others written and committed: exit 1"
fi

# Values the kernel would refuse: nothing is written.
fresh scaling-down
run 3 min=5G max=4G
says err <<'EOF'
acmactl: set: min=5G: above max=4G
acmactl: set: nothing written
EOF
unchanged scaling-down
verdict "min above max: nothing written, exit 3"

fresh vm-guest
run 3 min=3G
says err <<'EOF'
acmactl: set: min=3G: above max_mem (2147483648)
acmactl: set: nothing written
EOF
run 3 pressure=1000ms
says err <<'EOF'
acmactl: set: pressure=1000ms: not below the pressure interval (quota_reset_interval_ms 1000)
acmactl: set: nothing written
EOF
unchanged vm-guest
verdict "min above the max in force, pressure over the interval: nothing written, exit 3"

fresh idle-disabled
echo maybe > "$params/enabled"
run 3 min=1G
says err <<'EOF'
acmactl: /sys/module/damon_acma/parameters/enabled: not Y or N: 'maybe'
acmactl: set: nothing written
EOF
param min_mem 0
verdict "enabled unreadable: nothing written, exit 3"

usage() {
	usage_error 2 "$@"
}
root=$fixtures/scaling-down/root
usage --sysroot "$root" set
usage --sysroot "$root" set min=4X
usage --sysroot "$root" set max=
usage --sysroot "$root" set pressure=1000
usage --sysroot "$root" set pressure=0us
usage --sysroot "$root" set order=64
usage --sysroot "$root" set speed=1
usage --sysroot "$root" set min=1G min=2G
usage --sysroot "$root" set --json min=1G
usage --sysroot "$root" status --dry-run
usage --sysroot "$root" status -o rank,nothing
usage --sysroot "$root" status -o ''
usage --sysroot "$root" status -o rank, 
usage --sysroot "$root" status -o +rank
usage --sysroot "$root" status -o rank --format=prometheus
usage --sysroot "$root" set -o rank min=1G
usage --sysroot "$root" status --format=xml
usage --sysroot "$root" status --json --format=openmetrics
usage --sysroot "$root" status --output-file ""
usage --sysroot "$root" status now
usage --sysroot "$root" restart
usage --bogus
usage --sysroot "$tmp/none"

# A kernel without DAMON_ACMA.
mkdir -p "$tmp/empty/sys"
for cmd in status "set min=1G"; do
	# shellcheck disable=SC2086
	"$tool" --sysroot "$tmp/empty" $cmd > /dev/null 2> "$tmp/err"
	rc=$?
	if [ $rc = 4 ] && grep -qx 'acmactl: no DAMON_ACMA in this kernel (no /sys/module/damon_acma)' "$tmp/err"; then
		echo "ok: $cmd without DAMON_ACMA: exit 4"
	else
		echo "FAIL: $cmd without DAMON_ACMA: exit $rc, $(cat "$tmp/err")"
		failed=1
	fi
done
exit $failed
