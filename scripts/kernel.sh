#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Build the acma kernel for one architecture, incrementally.
#
#   scripts/kernel.sh ARCH TREE FRAGMENT...
#
# TREE is an ignored build folder that survives between runs. The first run unpacks
# Debian's linux-source-6.12 there; every run then brings the tree in line with the
# repository (the patch series in kernel/series, the new files under kernel/ and
# platform/), regenerates .config only when a fragment changed, and runs an
# incremental build through ccache, whose cache lives outside the clone so that a
# fresh clone on the same machine rebuilds fast.
set -eu

# acma's Makefile exports KCONFIG_CONFIG (acma's own configuration); the kernel's
# kconfig would read and write that name instead of the tree's .config. A
# KCONFIG_CONFIG=... given on acma's make command line reaches the kernel's make
# through MAKEFLAGS too: kmake sets it back on the command line.
unset KCONFIG_CONFIG

arch=$1
mkdir -p "$(dirname "$2")"
tree=$(cd "$(dirname "$2")" && pwd)/$(basename "$2")
shift 2
top=$(cd "$(dirname "$0")/.." && pwd)
tarball=${ACMA_KERNEL_TARBALL:-/usr/src/linux-source-6.12.tar.xz}
state=$tree/.acma

case $arch in
x86_64) karch=x86 image=arch/x86/boot/bzImage target=bzImage cross= ;;
arm64) karch=arm64 image=arch/arm64/boot/Image target=Image cross=aarch64-linux-gnu- ;;
*) echo "kernel.sh: unknown architecture '$arch'" >&2; exit 1 ;;
esac

# One build per tree at a time: a second make waits instead of corrupting it.
mkdir -p "$(dirname "$tree")"
exec 9> "$tree.lock"
if ! flock -n 9; then
	echo "  WAIT     another build of $tree is running"
	flock 9
fi

log() { printf '  %-8s %s\n' "$1" "$2"; }
die() { echo "kernel.sh: $*" >&2; exit 1; }

[ -r "$tarball" ] || die "$tarball is missing: run 'make deps'"

# 1. Pristine source, unpacked once per tarball version.
want_src=$(stat -c '%s-%Y' "$tarball")
if [ "$(cat "$state/source" 2>/dev/null)" != "$want_src" ]; then
	log UNPACK "$tarball -> $tree"
	rm -rf "$tree" "$tree.tmp"
	mkdir -p "$tree.tmp"
	tar -xf "$tarball" -C "$tree.tmp" --strip-components=1
	mv "$tree.tmp" "$tree"
	mkdir -p "$state/applied"
	echo "$want_src" > "$state/source"
fi

# 2. The patch series: reverse what is applied when it differs from kernel/series.
series() { grep -v '^[[:space:]]*\(#\|$\)' "$top/kernel/series" | awk '{print $1}'; }
same=1
n_applied=$(ls "$state/applied" | wc -l)
n_wanted=$(series | wc -l)
[ "$n_applied" -eq "$n_wanted" ] || same=0
if [ $same = 1 ]; then
	for p in $(series); do
		cmp -s "$top/kernel/patches/$p" "$state/applied/$p" || { same=0; break; }
	done
fi
if [ $same = 0 ]; then
	for p in $(ls "$state/applied" | sort -r); do
		log UNPATCH "$p"
		patch -s -R -p1 -d "$tree" < "$state/applied/$p" || die "cannot reverse $p"
		rm "$state/applied/$p"
	done
	for p in $(series); do
		log PATCH "$p"
		patch -s -N -p1 -d "$tree" < "$top/kernel/patches/$p" || die "$p does not apply to $(cat "$tree/Makefile" | sed -n 's/^SUBLEVEL = //p' | sed 's/^/6.12./')"
		cp "$top/kernel/patches/$p" "$state/applied/$p"
	done
fi

# 3. New files: kernel/ and platform/ mirror kernel paths. Copy only what changed so
# that make sees the right timestamps; drop files the repository no longer has.
newfiles() {
	for layer in kernel platform; do
		[ -d "$top/$layer" ] || continue
		(cd "$top/$layer" && find . -type f ! -path './configs/*' ! -path './patches/*' \
			! -name series ! -name README.md | sed "s|^\./|$layer |")
	done | sort
}
newfiles > "$state/files.new"
if [ -f "$state/files" ]; then
	awk '{print $2}' "$state/files.new" > "$state/names.new"
	awk '{print $2}' "$state/files" | grep -vxF -f "$state/names.new" | while read -r f; do
		log REMOVE "$f"
		rm -f "$tree/$f"
	done || true
fi
while read -r layer f; do
	if ! cmp -s "$top/$layer/$f" "$tree/$f"; then
		log COPY "$layer/$f"
		mkdir -p "$(dirname "$tree/$f")"
		cp "$top/$layer/$f" "$tree/$f"
	fi
done < "$state/files.new"
mv "$state/files.new" "$state/files"

export CCACHE_DIR=${CCACHE_DIR:-/var/cache/acma/ccache}
export CCACHE_BASEDIR=$tree CCACHE_MAXSIZE=${CCACHE_MAXSIZE:-4G} CCACHE_NOHASHDIR=1
mkdir -p "$CCACHE_DIR"

# 4. Configuration: tinyconfig plus the fragments, regenerated when they change.
kmake() {
	make -C "$tree" ARCH="$karch" CROSS_COMPILE="$cross" KCONFIG_CONFIG=.config \
		CC="ccache ${cross}gcc" KBUILD_BUILD_TIMESTAMP='2024-11-17 00:00 UTC' \
		KBUILD_BUILD_USER=acma KBUILD_BUILD_HOST=acma "$@"
}
want_cfg=$(cat "$@" | sha256sum | cut -c1-16)
if [ "$(cat "$state/config" 2>/dev/null)" != "$want_cfg" ] || [ ! -f "$tree/.config" ]; then
	log CONFIG "tinyconfig + $(echo "$@" | sed "s|$top/||g")"
	kmake -s tinyconfig >/dev/null
	(cd "$tree" && ARCH=$karch CROSS_COMPILE=$cross scripts/kconfig/merge_config.sh -m -O . .config "$@" >/dev/null)
	kmake -s olddefconfig >/dev/null
	# Every option a fragment asks for must have survived Kconfig's dependencies.
	missing=$(cat "$@" | sed -n 's/^\(CONFIG_[A-Za-z0-9_]*=.*\)$/\1/p; s/^# \(CONFIG_[A-Za-z0-9_]*\) is not set$/\1=n/p' |
		while IFS='=' read -r opt val; do
			have=$(sed -n "s/^$opt=//p" "$tree/.config")
			[ -n "$have" ] || have=n
			[ "$have" = "$val" ] || echo "$opt=$val (got $have)"
		done)
	[ -z "$missing" ] || die "options the fragments ask for did not take:
$missing"
	echo "$want_cfg" > "$state/config"
fi

# 5. Build.
start=$(date +%s)
log BUILD "$target ($(nproc) jobs, ccache $CCACHE_DIR)"
kmake -s -j"$(nproc)" "$target"
end=$(date +%s)
log TIME "kernel build took $((end - start)) s ($(ccache -s 2>/dev/null | sed -n 's/^ *Hits: *\([0-9]*\).*/\1/p' | head -n1) cache hits in all)"
ls -l "$tree/$image" | awk '{printf "  IMAGE    %s (%d KiB)\n", $NF, $5 / 1024}'
