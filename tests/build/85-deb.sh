#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# make deb: dpkg-deb --contents lists exactly the tools, man pages (gzip), completions,
# units (in /lib/systemd/system), JSON schemas and the copyright and changelog, owned by root, with
# their modes; the control fields are right (package, version of the commit built,
# architecture of this machine, libc6 from dpkg-shlibdeps); the unpacked package's
# acmactl prints the golden status, its man pages render without a warning and its
# service runs /usr/sbin/acmactl; lintian (-I --pedantic, as an unprivileged user)
# finds nothing.
top=$(cd "$(dirname "$0")/../.." && pwd)
. "$top/tests/tools/lib.sh"
golden_setup acmactl

missing=
for c in dpkg-deb dpkg-shlibdeps lintian scdoc man; do
	command -v $c > /dev/null || missing="$missing $c"
done
if [ -n "$missing" ]; then
	echo "SKIP: not installed:$missing; run make deps"
	exit 4
fi

if ! make -C "$top" --no-print-directory -s deb > "$tmp/make.log" 2>&1; then
	fail "make deb" "$(tail -n 5 "$tmp/make.log")"
	exit 1
fi
deb=$(readlink -f "$top/build/deb/acma-tools.deb")
ok "make deb: $(basename "$deb")"

dpkg-deb --contents "$deb" | awk '{ print $1, $2, $6 }' > "$tmp/contents"
if diff -u - "$tmp/contents" > "$tmp/diff" <<'EOF'
drwxr-xr-x root/root ./
drwxr-xr-x root/root ./lib/
drwxr-xr-x root/root ./lib/systemd/
drwxr-xr-x root/root ./lib/systemd/system/
-rw-r--r-- root/root ./lib/systemd/system/prometheus-node-exporter-acma.service
-rw-r--r-- root/root ./lib/systemd/system/prometheus-node-exporter-acma.timer
drwxr-xr-x root/root ./usr/
drwxr-xr-x root/root ./usr/bin/
-rwxr-xr-x root/root ./usr/bin/acma-ranks
-rwxr-xr-x root/root ./usr/bin/acma-trace
drwxr-xr-x root/root ./usr/sbin/
-rwxr-xr-x root/root ./usr/sbin/acmactl
drwxr-xr-x root/root ./usr/share/
drwxr-xr-x root/root ./usr/share/acma/
drwxr-xr-x root/root ./usr/share/acma/schemas/
-rw-r--r-- root/root ./usr/share/acma/schemas/acma-ranks.schema.json
-rw-r--r-- root/root ./usr/share/acma/schemas/acmactl-status.schema.json
drwxr-xr-x root/root ./usr/share/bash-completion/
drwxr-xr-x root/root ./usr/share/bash-completion/completions/
-rw-r--r-- root/root ./usr/share/bash-completion/completions/acma-ranks
-rw-r--r-- root/root ./usr/share/bash-completion/completions/acmactl
drwxr-xr-x root/root ./usr/share/doc/
drwxr-xr-x root/root ./usr/share/doc/acma-tools/
-rw-r--r-- root/root ./usr/share/doc/acma-tools/changelog.gz
-rw-r--r-- root/root ./usr/share/doc/acma-tools/copyright
drwxr-xr-x root/root ./usr/share/man/
drwxr-xr-x root/root ./usr/share/man/man1/
-rw-r--r-- root/root ./usr/share/man/man1/acma-ranks.1.gz
-rw-r--r-- root/root ./usr/share/man/man1/acma-trace.1.gz
drwxr-xr-x root/root ./usr/share/man/man8/
-rw-r--r-- root/root ./usr/share/man/man8/acmactl.8.gz
EOF
then
	ok "dpkg-deb --contents: the $(grep -c '^-' "$tmp/contents") files, owned by root/root, modes 755 and 644"
else
	fail "dpkg-deb --contents" "$(cat "$tmp/diff")"
fi

field() { dpkg-deb --field "$deb" "$1"; }
want_version="0~git$(git -C "$top" log -1 --format=%cd --date=format:%Y%m%d).$(git -C "$top" rev-parse --short=12 HEAD)"
bad=
[ "$(field Package)" = acma-tools ] || bad="$bad Package $(field Package);"
[ "$(field Architecture)" = "$(dpkg --print-architecture)" ] || bad="$bad Architecture $(field Architecture);"
case $(field Version) in "$want_version" | "$want_version+dirty") ;; *) bad="$bad Version $(field Version), want $want_version;" ;; esac
[[ $(field Depends) == "libc6 (>= "*")" ]] || bad="$bad Depends '$(field Depends)';"
[ "$(field Recommends)" = ipmitool ] || bad="$bad Recommends $(field Recommends);"
if [ -z "$bad" ]; then
	ok "control: acma-tools $(field Version) $(field Architecture), Depends: $(field Depends)"
else
	fail "control fields" "$bad"
fi

# The unpacked package works.
dpkg-deb -x "$deb" "$tmp/x"
"$tmp/x/usr/sbin/acmactl" --sysroot "$fixtures/scaling-down/root" status > "$tmp/out" 2> "$tmp/err"
golden_check "the package's acmactl status" "$fixtures/scaling-down" expected.txt $?
"$tmp/x/usr/sbin/acmactl" --sysroot "$fixtures/scaling-down/root" status --format=prometheus > "$tmp/out" 2> "$tmp/err"
golden_check "the package's acmactl status --format=prometheus" "$fixtures/scaling-down" expected.prom $? \
	expected-metrics.err
# the package's tools say the package's version
for t in usr/sbin/acmactl usr/bin/acma-ranks usr/bin/acma-trace; do
	got=$("$tmp/x/$t" --version)
	if [ "$got" = "${t##*/} (acma) $(field Version)" ]; then
		ok "the package's ${t##*/} --version: $got"
	else
		fail "the package's ${t##*/} --version" "'$got', want '${t##*/} (acma) $(field Version)'"
	fi
done
for page in man8/acmactl.8.gz man1/acma-ranks.1.gz man1/acma-trace.1.gz; do
	LC_ALL=C.UTF-8 MANWIDTH=80 man --warnings=w -l "$tmp/x/usr/share/man/$page" > "$tmp/page" 2> "$tmp/warn"
	rc=$?
	if [ $rc = 0 ] && [ ! -s "$tmp/warn" ] && grep -q 'EXIT STATUS' "$tmp/page"; then
		ok "the package's $page renders without a warning"
	else
		fail "the package's $page" "exit $rc: $(head -n 3 "$tmp/warn")"
	fi
done
if grep -q '^ExecStart=/usr/sbin/acmactl status --format=prometheus ' \
	"$tmp/x/lib/systemd/system/prometheus-node-exporter-acma.service"; then
	ok "the package's service runs /usr/sbin/acmactl"
else
	fail "the package's service" "$(grep ExecStart "$tmp/x/lib/systemd/system/prometheus-node-exporter-acma.service")"
fi

# lintian, as an unprivileged user when run as root (lintian says root is not for it).
cp "$deb" "$tmp/acma-tools.deb"
chmod 755 "$tmp"
chmod 644 "$tmp/acma-tools.deb"
as_user=()
[ "$(id -u)" = 0 ] && command -v setpriv > /dev/null &&
	as_user=(setpriv --reuid=65534 --regid=65534 --clear-groups env HOME=/tmp TMPDIR=/tmp)
# from a folder that user may enter (a clone may sit in a private one)
(cd "$tmp" && "${as_user[@]}" lintian -I --pedantic "$tmp/acma-tools.deb") > "$tmp/lintian" 2>&1
rc=$?
if [ $rc = 0 ] && [ ! -s "$tmp/lintian" ]; then
	ok "lintian -I --pedantic: nothing to say"
else
	fail "lintian" "exit $rc: $(head -n 10 "$tmp/lintian")"
fi
exit $failed
