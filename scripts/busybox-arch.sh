#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Print the path of a static busybox for the guest's architecture.
#
#   busybox-arch.sh ARCH     progress on stderr; the path is the last line on stdout:
#                            busybox=$(scripts/busybox-arch.sh arm64 | tail -n1)
#
# x86_64 guests use the host's own /bin/busybox (package busybox-static). For arm64,
# Debian's busybox-static:arm64 is downloaded once per machine and unpacked, without
# installing anything arm64 and without touching the host's apt or dpkg setup (no
# `dpkg --add-architecture`): apt-get runs with a private sources list (the host's
# Debian archives, arm64 only), private lists and caches, and APT::Architecture=arm64.
# The result is cached in /var/cache/acma/busybox-arm64/VERSION-HASH/bin/busybox
# (VERSION: the package's, HASH: this script's); it is unpacked in a temporary folder
# renamed to VERSION-HASH only once the binary passed its check. To pick up a newer
# package, remove the cache folder.
set -eu

arch=${1:-}
log() { printf '  %-8s %s\n' "$1" "$2" >&2; }
die() { echo "busybox-arch.sh: $*" >&2; exit 1; }

case $arch in
x86_64)
	[ -x /bin/busybox ] || die "/bin/busybox is missing: run 'make deps'"
	echo /bin/busybox
	exit 0
	;;
arm64) ;;
*) echo "usage: busybox-arch.sh x86_64|arm64" >&2; exit 2 ;;
esac

cache=${ACMA_BUSYBOX_CACHE:-/var/cache/acma/busybox-$arch}
hash=$(sha256sum "$0" | cut -c1-12)

# Fetched already: print the path and nothing else. Entries appear only by rename.
done_path() {
	for b in "$cache"/*-"$hash"/bin/busybox; do
		[ -x "$b" ] && echo "$b"
	done | tail -n1
}
b=$(done_path)
[ -z "$b" ] || { echo "$b"; exit 0; }

# One fetch at a time: a second caller waits, then finds the result.
mkdir -p "$cache"
exec 9> "$cache/lock"
if ! flock -n 9; then
	log WAIT "another download of busybox-static:$arch is running"
	flock 9
fi
b=$(done_path)
[ -z "$b" ] || { echo "$b"; exit 0; }

for t in apt-get dpkg-deb file; do
	command -v $t >/dev/null || die "$t is missing: run 'make deps'"
done

# Whatever an interrupted run left behind is stale: we hold the lock.
rm -rf "$cache"/tmp.*
tmp=$cache/tmp.$$
trap 'rm -rf "$tmp"' EXIT
trap 'exit 1' INT TERM HUP
mkdir -p "$tmp/deb" "$tmp/out"

# A private apt for arm64 packages: the host's Debian archives of this release (its deb
# entries, whatever their format), its own lists and caches, and an empty dpkg status.
apt=$cache/apt
mkdir -p "$apt/lists/partial" "$apt/cache"
# shellcheck source=/dev/null
. /etc/os-release
# shellcheck disable=SC2016 # apt's own $(FIELD) syntax
apt-get indextargets --format '$(REPO_URI) $(RELEASE) $(COMPONENT)' 'Created-By: Packages' |
	awk -v c="$VERSION_CODENAME" -v a="$arch" \
		'$2 ~ "^" c "(-|$)" { print "deb [arch=" a "] " $0 }' |
	sort -u > "$apt/sources.list"
[ -s "$apt/sources.list" ] || die "no Debian $VERSION_CODENAME archive in the host's apt sources"
aptget() {
	apt-get -q -o Dir::Etc::SourceList="$apt/sources.list" -o Dir::Etc::SourceParts=/dev/null \
		-o Dir::State::Lists="$apt/lists" -o Dir::Cache="$apt/cache" \
		-o Dir::State::status=/dev/null -o APT::Architecture="$arch" \
		-o APT::Architectures::="$arch" -o APT::Sandbox::User=root "$@" > "$tmp/log" 2>&1 ||
		{ cat "$tmp/log" >&2; die "apt-get $1 failed"; }
}
log FETCH "busybox-static:$arch ($(awk '{print $4}' "$apt/sources.list" | tr '\n' ' ' | sed 's/ $//'))"
aptget update
(cd "$tmp/deb" && aptget download "busybox-static:$arch")
deb=$(ls "$tmp/deb"/busybox-static_*.deb)
version=$(dpkg-deb -f "$deb" Version | sed 's/^[0-9]*://')
dpkg-deb -x "$deb" "$tmp/out"

# Check, then publish the entry by renaming it.
what=$(file -b "$tmp/out/bin/busybox")
case $what in
*"ARM aarch64"*"statically linked"*) ;;
*) die "busybox-static:$arch gave no static arm64 busybox: $what" ;;
esac
key=$cache/$version-$hash
mv "$tmp/out" "$key"
log BUSYBOX "$key/bin/busybox ($version)"
echo "$key/bin/busybox"
