#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# A board file with a typo stops the build before anything is built or booted, with
# an error naming the file, the line and what is wrong.
top=$(cd "$(dirname "$0")/../.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/boards/qemu-x86_64"
bad=$tmp/boards/qemu-x86_64/board.hw
sed 's/^memory-block  128M/memory-blok   128M/' "$top/boards/qemu-x86_64/board.hw" > "$bad"
line=$(grep -n '^memory-blok' "$bad" | cut -d: -f1)
if out=$(make -s -C "$top" board-check BOARD_FILE="$bad" 2>&1); then
	echo "FAIL: make accepted a broken board file"
	exit 1
fi
echo "$out" | head -n 3
echo "$out" | grep -q "^$bad:$line: error: unknown keyword 'memory-blok' (did you mean 'memory-block'?)" ||
	{ echo "FAIL: the error does not name file, line $line and the typo"; exit 1; }
