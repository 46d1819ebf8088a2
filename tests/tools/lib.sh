# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash disable=SC2154,SC2034
#
# Sourced by the tools' golden-output tests (tests/build/*-golden.sh), once they set
# $top (the repository). The helpers print "ok:" or "FAIL:" lines and set failed=1 on
# a failure.

# ok WHAT, fail WHAT WHY: one result line; a failure sets failed=1.
ok() {
	echo "ok: $1"
}
fail() {
	echo "FAIL: $1: $2"
	failed=1
}

# golden_setup TOOL: $tool, build/host/TOOL (skip, exit 4, when it is not built),
# $fixtures, tests/tools/TOOL, $tmp, a private folder removed at exit, and failed=0.
golden_setup() {
	tool=$top/build/host/$1
	fixtures=$top/tests/tools/$1
	[ -x "$tool" ] || { echo "SKIP: build/host/$1 not built"; exit 4; }
	tmp=$(mktemp -d)
	trap 'rm -rf "$tmp"' EXIT
	failed=0
}

# golden_check WHAT DIR EXPECTED RC [ERR]: the last run's output ($tmp/out), messages
# ($tmp/err) and exit status RC are DIR/EXPECTED, DIR/ERR (expected.err unless given)
# and DIR/expected.rc, byte for byte.
golden_check() {
	local what=$1 dir=$2 expected=$3 rc=$4 err=${5:-expected.err}
	if cmp -s "$tmp/out" "$dir/$expected" && cmp -s "$tmp/err" "$dir/$err" &&
	   [ "$rc" = "$(cat "$dir/expected.rc")" ]; then
		echo "ok: $what: exit $rc"
		return
	fi
	echo "FAIL: $what: exit $rc, want $(cat "$dir/expected.rc")"
	diff -u "$dir/$expected" "$tmp/out"
	diff -u "$dir/$err" "$tmp/err"
	failed=1
}

# help_explains WORD...: $tool --help holds every WORD.
help_explains() {
	local help word missing=0

	help=$("$tool" --help) || { echo "FAIL: --help exits $?"; failed=1; }
	for word in "$@"; do
		echo "$help" | grep -qF -- "$word" ||
			{ echo "FAIL: --help does not explain '$word'"; missing=1; }
	done
	[ $missing = 0 ] && echo "ok: --help explains every column, summary line and exit code"
	[ $missing = 0 ] || failed=1
}

# usage_error RC ARGS...: $tool ARGS exits RC, the usage error's, with one line on stderr.
usage_error() {
	local want=$1 rc
	shift
	"$tool" "$@" > /dev/null 2> "$tmp/err"
	rc=$?
	if [ $rc = "$want" ] && [ "$(wc -l < "$tmp/err")" = 1 ]; then
		echo "ok: usage error '$*': $(cat "$tmp/err")"
	else
		echo "FAIL: '$*': exit $rc, stderr: $(cat "$tmp/err")"
		failed=1
	fi
}

# schema_check WHAT SCHEMA FILE...: every FILE is valid JSON against
# tools/schemas/SCHEMA (scripts/json-validate.py, python3-jsonschema); on a failure
# the file, the JSON path and the message of each error.
schema_check() {
	local what=$1 schema=$2
	shift 2
	if "$top/scripts/json-validate.py" "$top/tools/schemas/$schema" "$@" > "$tmp/schema.out" 2>&1; then
		ok "$what: valid against tools/schemas/$schema"
	else
		fail "$what" "not valid against tools/schemas/$schema: $(cat "$tmp/schema.out")"
	fi
}

# schema_rejects WHAT SCHEMA FILE JQ PATH: FILE changed by the jq filter JQ is not valid
# against tools/schemas/SCHEMA (exit 1), and an error is at the JSON path PATH
# ($.ranks[0] ...): the check cannot pass whatever it is given.
schema_rejects() {
	local what=$1 schema=$2 file=$3 filter=$4 path=$5 rc
	jq "$filter" "$file" > "$tmp/bad.json" || { fail "$what" "jq '$filter' failed"; return; }
	"$top/scripts/json-validate.py" "$top/tools/schemas/$schema" "$tmp/bad.json" > "$tmp/schema.out" 2>&1
	rc=$?
	if [ $rc = 1 ] && grep -qF "$tmp/bad.json: $path: " "$tmp/schema.out"; then
		ok "$what rejected: $(grep -F "$tmp/bad.json: $path: " "$tmp/schema.out" | head -n 1 | sed "s|^$tmp/bad.json: ||")"
	else
		fail "$what" "exit $rc, want 1 with an error at $path: $(cat "$tmp/schema.out")"
	fi
}
