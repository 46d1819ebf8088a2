#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Build the guest's initramfs: busybox-static for the board's architecture
# (scripts/busybox-arch.sh), the guest scripts (scripts/guest), the end-to-end tests
# (tests/e2e/guest), the benchmarks (tests/bench/guest), the static helper programs and
# the board's rank table, facts and power states generated from the board file.
#
#   initramfs.sh BOARD-FILE BOARDGEN BINDIR OUTPUT
set -eu

board_file=$1 boardgen=$2 bindir=$3 output=$4
top=$(cd "$(dirname "$0")/.." && pwd)
root=$output.d

rm -rf "$root"
mkdir -p "$root"/bin "$root"/sbin "$root"/usr/bin "$root"/usr/sbin "$root"/etc/acma \
	"$root"/proc "$root"/sys "$root"/dev "$root"/tmp "$root"/usr/share/acma/tests \
	"$root"/usr/share/acma/bench

eval "$("$boardgen" shell "$board_file")"
busybox=$("$top/scripts/busybox-arch.sh" "$BOARD_ARCH" | tail -n 1)
[ -x "$busybox" ] || { echo "initramfs.sh: no busybox for $BOARD_ARCH" >&2; exit 1; }
cp "$busybox" "$root/bin/busybox"
# The applets' links. The host's busybox-static lists them: Debian builds it with one
# configuration for every architecture, and a foreign one does not run here.
for applet in $(/bin/busybox --list-full); do
	[ -e "$root/$applet" ] || ln -s /bin/busybox "$root/$applet"
done

install -m 755 "$top/scripts/guest/init" "$root/init"
install -m 755 "$top/scripts/guest/run-tests" "$top/scripts/guest/demo" "$top/scripts/guest/ranks-off" \
	"$top/scripts/guest/kdump" "$top/scripts/guest/vmcore" "$top/scripts/guest/kexec" "$top/scripts/guest/rebooted" \
	"$root/usr/share/acma/"
install -m 644 "$top/scripts/guest/lib.sh" "$top/scripts/guest/damon.sh" "$top/scripts/guest/fleet.sh" \
	"$root/usr/share/acma/"
for t in "$top"/tests/e2e/guest/*; do
	install -m 755 "$t" "$root/usr/share/acma/tests/"
done
for b in "$top"/tests/bench/guest/*; do
	install -m 755 "$b" "$root/usr/share/acma/bench/"
done
for b in "$bindir"/*; do
	[ -e "$b" ] && install -m 755 "$b" "$root/usr/bin/"
done

"$boardgen" ranks "$board_file" > "$root/etc/acma/board.ranks"
"$boardgen" shell "$board_file" > "$root/etc/acma/board.env"
"$boardgen" states "$board_file" > "$root/etc/acma/board.states"

(cd "$root" && find . | LC_ALL=C sort | cpio -o -H newc --quiet -R 0:0) | gzip -9n > "$output.tmp"
mv "$output.tmp" "$output"
