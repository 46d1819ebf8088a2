#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# `make <board>_defconfig` for a board that does not exist is refused with the list
# of boards, and the current .config is left as it was.
top=$(cd "$(dirname "$0")/../.." && pwd)
before=$(sha256sum "$top/.config" 2>/dev/null)
if out=$(make -s -C "$top" no-such-board_defconfig 2>&1); then
	echo "$out"
	echo "FAIL: make accepted an unknown board"
	exit 1
fi
echo "$out" | head -n 2
echo "$out" | grep -q "unknown board 'no-such-board'" || { echo "FAIL: no clear error"; exit 1; }
echo "$out" | grep -q "Boards: .*qemu-x86_64" || { echo "FAIL: the boards are not listed"; exit 1; }
[ "$(sha256sum "$top/.config" 2>/dev/null)" = "$before" ] || { echo "FAIL: .config changed"; exit 1; }
