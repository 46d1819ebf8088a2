#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# make install DESTDIR=$(mktemp -d): the tree it installs is exactly the tools, their
# man pages, bash completions, systemd units and JSON schemas, with their modes; the
# installed tools run, and their JSON is valid against the installed schemas; each man page renders with man -l without a warning, is found by name and
# section, and its EXIT STATUS lists the codes --help lists; the completion functions
# complete commands, options, formats and columns; the units pass systemd-analyze
# verify (no line printed) with the installed acmactl's path; PREFIX=/usr moves
# everything and the unit's path; make uninstall leaves no file behind, nor the schemas'
# directory.
top=$(cd "$(dirname "$0")/../.." && pwd)
. "$top/tests/tools/lib.sh"
golden_setup acmactl

missing=
for c in scdoc man systemd-analyze; do
	command -v $c > /dev/null || missing="$missing $c"
done
if [ -n "$missing" ]; then
	echo "SKIP: not installed:$missing; run make deps"
	exit 4
fi

dest=$tmp/root
if ! make -C "$top" --no-print-directory -s install DESTDIR="$dest" > "$tmp/make.log" 2>&1; then
	fail "make install DESTDIR=$dest" "$(tail -n 5 "$tmp/make.log")"
	exit 1
fi
(cd "$dest" && find . ! -type d -printf '%m %p\n' | sort) > "$tmp/tree"
if diff -u - "$tmp/tree" > "$tmp/diff" <<'EOF'
644 ./usr/local/lib/systemd/system/prometheus-node-exporter-acma.service
644 ./usr/local/lib/systemd/system/prometheus-node-exporter-acma.timer
644 ./usr/local/share/acma/schemas/acma-ranks.schema.json
644 ./usr/local/share/acma/schemas/acmactl-status.schema.json
644 ./usr/local/share/bash-completion/completions/acma-ranks
644 ./usr/local/share/bash-completion/completions/acmactl
644 ./usr/local/share/man/man1/acma-ranks.1
644 ./usr/local/share/man/man1/acma-trace.1
644 ./usr/local/share/man/man8/acmactl.8
755 ./usr/local/bin/acma-ranks
755 ./usr/local/bin/acma-trace
755 ./usr/local/sbin/acmactl
EOF
then
	ok "make install DESTDIR=...: the $(wc -l < "$tmp/tree") files, modes 755 and 644, under /usr/local"
else
	fail "installed tree" "$(cat "$tmp/diff")"
fi

# The installed tools are the tools.
"$dest/usr/local/sbin/acmactl" --sysroot "$fixtures/scaling-down/root" status > "$tmp/out" 2> "$tmp/err"
golden_check "installed acmactl status" "$fixtures/scaling-down" expected.txt $?
# The installed schemas are the tools' (tests/build/30 and 50 check every JSON against them).
"$dest/usr/local/sbin/acmactl" --sysroot "$fixtures/scaling-down/root" status --json > "$tmp/out.json"
# shellcheck disable=SC2046
"$dest/usr/local/bin/acma-ranks" $(cat "$top/tests/tools/acma-ranks/ranks-off/args") \
	--replay "$top/tests/tools/acma-ranks/ranks-off" --json > "$tmp/ranks.json"
for s in acmactl-status:out acma-ranks:ranks; do
	if "$top/scripts/json-validate.py" "$dest/usr/local/share/acma/schemas/${s%:*}.schema.json" \
		"$tmp/${s#*:}.json" > "$tmp/schema.out" 2>&1 &&
	   cmp -s "$top/tools/schemas/${s%:*}.schema.json" "$dest/usr/local/share/acma/schemas/${s%:*}.schema.json"; then
		ok "installed ${s%:*}.schema.json: tools/schemas' one, the installed tool's JSON valid against it"
	else
		fail "installed ${s%:*}.schema.json" "$(cat "$tmp/schema.out")"
	fi
done
for t in bin/acma-ranks bin/acma-trace; do
	if "$dest/usr/local/$t" --help > /dev/null; then
		ok "installed $t --help: exit 0"
	else
		fail "installed $t" "--help exits $?"
	fi
done
# -V/--version: the tool's name and the version of the tree built (scripts/version.sh)
want_version=$("$top/scripts/version.sh")
for t in sbin/acmactl bin/acma-ranks bin/acma-trace; do
	got=$("$dest/usr/local/$t" --version)
	rc=$?
	short=$("$dest/usr/local/$t" -V)
	if [ $rc = 0 ] && [ "$got" = "${t#*/} (acma) $want_version" ] && [ "$short" = "$got" ]; then
		ok "installed $t --version and -V: $got"
	else
		fail "installed $t --version" "exit $rc: '$got' / -V '$short', want '${t#*/} (acma) $want_version'"
	fi
done

# Man pages: rendered without a warning, found by name, the exit codes of --help.
man=$dest/usr/local/share/man
for page in man8/acmactl.8 man1/acma-ranks.1 man1/acma-trace.1; do
	name=$(basename "$page")
	name=${name%.*}
	section=${page##*.}
	tool=$(find "$dest" -name "$name" -type f -perm -u+x)
	LC_ALL=C.UTF-8 MANWIDTH=80 man --warnings=w -l "$man/$page" > "$tmp/page" 2> "$tmp/warn"
	rc=$?
	if [ $rc != 0 ] || [ -s "$tmp/warn" ]; then
		fail "man -l $page" "exit $rc: $(head -n 3 "$tmp/warn")"
		continue
	fi
	LC_ALL=C.UTF-8 MANWIDTH=80 man -M "$man" "$section" "$name" > "$tmp/byname" 2> "$tmp/warn"
	if ! cmp -s "$tmp/page" "$tmp/byname"; then
		fail "man -M ... $section $name" "not the page installed: $(head -n 2 "$tmp/warn")"
		continue
	fi
	# the codes --help lists ("  N  meaning") against those of EXIT STATUS
	want=$("$tool" --help | sed -n '/^Exit status:/,$ s/^  \([0-9]\)  .*/\1/p' | tr '\n' ' ')
	got=$(col -b < "$tmp/page" | sed -n '/^EXIT STATUS/,/^[A-Z]/ s/^       \([0-9]\)$/\1/p' | tr '\n' ' ')
	if [ -z "$want" ] || [ "$want" != "$got" ]; then
		fail "$name($section) EXIT STATUS" "lists '$got', --help '$want'"
	elif ! grep -q "^$name(" "$tmp/page" && ! col -b < "$tmp/page" | grep -q "^$name($section)"; then
		fail "$name($section)" "no title line"
	else
		ok "$name($section): man -l renders it without a warning ($(wc -l < "$tmp/page") lines), man -M finds it, exit codes $got as --help"
	fi
done

# Bash completion, the installed files, the installed tools in PATH.
cat > "$tmp/complete.sh" <<'EOF'
. "$1/usr/local/share/bash-completion/completions/acmactl"
. "$1/usr/local/share/bash-completion/completions/acma-ranks"
PATH=$1/usr/local/sbin:$1/usr/local/bin:$PATH
# c FUNCTION WORD...: the words as readline splits them (at =), the last one completed
c() {
	local f=$1
	shift
	COMP_WORDS=("$@")
	COMP_CWORD=$((${#COMP_WORDS[@]} - 1))
	COMPREPLY=()
	"$f"
	echo "$*: ${COMPREPLY[*]}"
}
c _acmactl acmactl st
c _acmactl acmactl status --f
c _acmactl acmactl --format = op
c _acmactl acmactl set ma
c _acmactl acmactl set max = a
c _acmactl acmactl status -o RANK,st
c _acmactl acmactl -o +tr
c _acma_ranks acma-ranks -o ra
c _acma_ranks acma-ranks -C 1
c _acma_ranks acma-ranks --js
EOF
bash "$tmp/complete.sh" "$dest" > "$tmp/completions" 2>&1
if diff -u - "$tmp/completions" > "$tmp/diff" <<'EOF'
acmactl st: status
acmactl status --f: --format
acmactl --format = op: openmetrics
acmactl set ma: max=
acmactl set max = a: all
acmactl status -o RANK,st: RANK,STATE
acmactl -o +tr: +TRANSITIONS
acma-ranks -o ra: RANK RANGES
acma-ranks -C 1: 1 10 11 12 13 14 15 16 17
acma-ranks --js: --json
EOF
then
	ok "bash completion: commands, options, --format, set's keys, -o columns from the installed tools"
else
	fail "bash completion" "$(cat "$tmp/diff")"
fi

# systemd-analyze verify, in a root that holds the host's units and the installed tree,
# so that the unit's ExecStart= and Documentation= (man:acmactl(8)) are the installed ones.
unit=$dest/usr/local/lib/systemd/system/prometheus-node-exporter-acma.service
if ! grep -qx 'ExecStart=/usr/local/sbin/acmactl status --format=prometheus --output-file /var/lib/prometheus/node-exporter/acma.prom' "$unit"; then
	fail "the service's ExecStart" "$(grep ExecStart "$unit")"
fi
mkdir -p "$dest/usr/lib/systemd"
cp -a /usr/lib/systemd/system "$dest/usr/lib/systemd/"
ln -s usr/lib "$dest/lib"
MANPATH=$man systemd-analyze verify --root="$dest" "$unit" "${unit%.service}.timer" > "$tmp/verify" 2>&1
rc=$?
if [ $rc = 0 ] && [ ! -s "$tmp/verify" ]; then
	ok "systemd-analyze verify: the service and the timer, nothing said"
else
	fail "systemd-analyze verify" "exit $rc: $(cat "$tmp/verify")"
fi
rm -rf "${dest:?}/usr/lib/systemd" "${dest:?}/lib"

# PREFIX=/usr
make -C "$top" --no-print-directory -s install DESTDIR="$tmp/usr-root" PREFIX=/usr > "$tmp/make.log" 2>&1
if [ -x "$tmp/usr-root/usr/sbin/acmactl" ] && [ -f "$tmp/usr-root/usr/share/man/man8/acmactl.8" ] &&
   grep -q '^ExecStart=/usr/sbin/acmactl ' "$tmp/usr-root/usr/lib/systemd/system/prometheus-node-exporter-acma.service" &&
   [ -z "$(find "$tmp/usr-root" -path '*/local/*')" ]; then
	ok "make install PREFIX=/usr: /usr/sbin/acmactl, the unit runs it, nothing under local"
else
	fail "make install PREFIX=/usr" "$(cd "$tmp/usr-root" && find . ! -type d | sort | tr '\n' ' ')"
fi

# make uninstall
make -C "$top" --no-print-directory -s uninstall DESTDIR="$dest" > "$tmp/make.log" 2>&1
left=$(find "$dest" ! -type d -o -path '*/share/acma')
if [ -z "$left" ]; then
	ok "make uninstall: no file left, nor share/acma"
else
	fail "make uninstall" "left $left"
fi
exit $failed
