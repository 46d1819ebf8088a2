#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Export acma's whole kernel change as a git format-patch series against the Linux
# 6.12 source, for users to apply to their own tree (`git am`).
#
#   kernel-patches.sh OUTDIR
#
# kernel/series lists, in order, each patch of kernel/patches/ (a format-patch file:
# its headers and message become the commit) followed by the new files under kernel/
# or platform/ that the commit adds. Every new file must belong to exactly one entry.
# A git repository of the pristine source is kept in build/kernel-git (made once).
set -eu

top=$(cd "$(dirname "$0")/.." && pwd)
mkdir -p "$1"
out=$(cd "$1" && pwd)
tarball=${ACMA_KERNEL_TARBALL:-/usr/src/linux-source-6.12.tar.xz}
repo=$top/build/kernel-git
die() { echo "kernel-patches.sh: $*" >&2; exit 1; }

entries=$(grep -v '^[[:space:]]*\(#\|$\)' "$top/kernel/series" || true)

# Every new file is claimed by exactly one series entry.
claimed=$(echo "$entries" | awk '{ for (i = 2; i <= NF; i++) print $i }' | sort)
dups=$(echo "$claimed" | uniq -d)
mkdir -p "$top/build"
[ -z "$dups" ] || die "files claimed by more than one patch in kernel/series: $dups"
for layer in kernel platform; do
	[ -d "$top/$layer" ] || continue
	(cd "$top/$layer" && find . -type f ! -path './configs/*' ! -path './patches/*' \
		! -name series ! -name README.md | sed 's|^\./||')
done | sort > "$top/build/.kernel-files"
orphans=$(echo "$claimed" | comm -13 - "$top/build/.kernel-files")
[ -z "$orphans" ] || die "new files that no patch in kernel/series introduces: $orphans"

if [ -z "$entries" ]; then
	echo "  PATCHES  kernel/series is empty: acma changes no kernel file yet"
	rm -f "$out"/*.patch
	exit 0
fi

if [ ! -d "$repo/.git" ]; then
	echo "  GIT      pristine $(basename "$tarball") -> $repo (once)"
	rm -rf "$repo"
	mkdir -p "$repo"
	tar -xf "$tarball" -C "$repo" --strip-components=1
	version=$(sed -n 's/^VERSION = //p; s/^PATCHLEVEL = //p; s/^SUBLEVEL = //p' "$repo/Makefile" | paste -sd.)
	git -C "$repo" init -q
	git -C "$repo" add -A -f
	git -C "$repo" -c user.name=acma -c user.email=acma@localhost commit -q \
		-m "Linux $version (Debian linux-source-6.12)"
	git -C "$repo" tag base
fi
git -C "$repo" checkout -q -f base 2>/dev/null
git -C "$repo" checkout -q -B acma base
git -C "$repo" clean -q -fdx

while read -r patch files; do
	git -C "$repo" -c user.name=acma -c user.email=acma@localhost am -q \
		"$top/kernel/patches/$patch" || die "$patch does not apply"
	if [ -n "$files" ]; then
		for f in $files; do
			layer=kernel
			[ -f "$top/kernel/$f" ] || layer=platform
			mkdir -p "$repo/$(dirname "$f")"
			cp "$top/$layer/$f" "$repo/$f"
			git -C "$repo" add -f "$f"
		done
		git -C "$repo" -c user.name=acma -c user.email=acma@localhost commit -q --amend --no-edit
	fi
done <<EOF
$entries
EOF
rm -f "$out"/*.patch
git -C "$repo" format-patch -q -o "$out" base..acma
echo "  PATCHES  $(ls "$out" | wc -l) patches in $out (apply with: git am $out/*.patch)"
