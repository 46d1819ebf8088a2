#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Every arm64 board's DRAM power node (the boards whose 'boardgen needs' lists dtb)
# compiles with dtc without a warning and, with dt-schema's tools (scripts/dt-check.sh),
# matches the binding, which is itself a valid schema with an example that matches it.
# U-Boot's environment for the board makes an image mkenvimage accepts at the size
# U-Boot reads.
top=$(cd "$(dirname "$0")/../.." && pwd)
boardgen=$top/build/host/boardgen
binding=platform/Documentation/devicetree/bindings/memory-controllers/acma,dram-power.yaml
command -v dtc > /dev/null || { echo "SKIP: no dtc (device-tree-compiler)"; exit 4; }
[ -x "$boardgen" ] || { echo "SKIP: $boardgen is not built"; exit 4; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$top" || exit 1

n=0 checked=0
for hw in boards/*/board.hw; do
	eval "$("$boardgen" shell "$hw")" || { echo "FAIL: $hw"; exit 1; }
	if ! "$boardgen" needs "$hw" | grep -qx dtb; then
		echo "$BOARD_NAME: no devicetree node ($BOARD_ARCH, firmware $BOARD_FIRMWARE)"
		continue
	fi
	d=$tmp/$BOARD_NAME
	mkdir -p "$d"
	"$boardgen" dts "$hw" > "$d/dram-power.dts" || { echo "FAIL: boardgen dts $hw"; exit 1; }
	if ! dtc -I dts -O dtb -o "$d/dram-power.dtb" "$d/dram-power.dts" 2> "$d/dtc.log" ||
	   [ -s "$d/dtc.log" ]; then
		cat "$d/dtc.log"
		echo "FAIL: $BOARD_NAME: dtc did not compile the node cleanly"
		exit 1
	fi
	echo "$BOARD_NAME: dram-power.dtb $(stat -c %s "$d/dram-power.dtb") bytes," \
		"$(grep -c 'rank@' "$d/dram-power.dts") ranks"
	scripts/dt-check.sh platform/Documentation/devicetree/bindings "$binding" \
		"$d/dram-power.dtb" || { echo "FAIL: $BOARD_NAME: dt-check"; exit 1; }
	[ -f "$d/dram-power.dtb.checked" ] && checked=$((checked + 1))
	if command -v mkenvimage > /dev/null; then
		"$boardgen" uboot-env "$hw" > "$d/uboot-env.txt" &&
			mkenvimage -s 0x40000 -o "$d/uboot-env.img" "$d/uboot-env.txt" ||
			{ echo "FAIL: $BOARD_NAME: no U-Boot environment image"; exit 1; }
		echo "$BOARD_NAME: uboot-env.img of $(grep -vc '^#' "$d/uboot-env.txt") variables"
	fi
	n=$((n + 1))
done
[ $n -gt 0 ] || { echo "SKIP: no board with a devicetree node"; exit 4; }
[ $checked = $n ] || { echo "SKIP: dt-check did not run (see above)"; exit 4; }
