#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# boardgen on the real boards (tests/tools/boardgen, see its README.md): every board
# file is valid, and for every board shell, needs, qemu-args and backing-files print
# byte for byte the expected output: the server boards' QEMU arguments do not change
# by accident, the VM board's pc-dimms backed by host RAM, its virtio-mem device and
# its virtio-balloon are pinned. A board that needs a devicetree (needs: uboot-env,
# dtb) also has its U-Boot environment and its DRAM power node pinned (uboot-env,
# dts). Also: a VM board (firmware none) gets no BMC configuration, no ACPI tables
# and no devicetree node, and an x86 (q35) board no devicetree node, with an error
# saying why.
top=$(cd "$(dirname "$0")/../.." && pwd)
. "$top/tests/tools/lib.sh"
golden_setup boardgen

for hw in "$top"/boards/*/board.hw; do
	b=$(basename "$(dirname "$hw")")
	if "$tool" check "$hw" > "$tmp/out" 2>&1; then
		echo "ok: boardgen check $b"
	else
		cat "$tmp/out"
		echo "FAIL: boardgen check $b"
		failed=1
	fi
	[ -d "$fixtures/$b" ] || { echo "FAIL: $b: no tests/tools/boardgen/$b"; failed=1; }
done

for dir in "$fixtures"/*/; do
	b=$(basename "$dir")
	hw=$top/boards/$b/board.hw
	[ -f "$hw" ] || { echo "FAIL: tests/tools/boardgen/$b: no $hw"; failed=1; continue; }
	for c in shell needs; do
		"$tool" $c "$hw" > "$tmp/out" 2> "$tmp/err"
		golden_check "$b $c" "$dir" $c.txt $?
	done
	for c in qemu-args backing-files; do
		"$tool" $c "$hw" /dev/shm acma-test > "$tmp/out" 2> "$tmp/err"
		golden_check "$b $c" "$dir" $c.txt $?
	done
	# these name the board file in their header: given as the build gives it
	for c in $(sed -n 's/^uboot-env$/uboot-env/p; s/^dtb$/dts/p' "$dir/needs.txt"); do
		(cd "$top" && "$tool" $c "boards/$b/board.hw") > "$tmp/out" 2> "$tmp/err"
		golden_check "$b $c" "$dir" $c.txt $?
	done
done

# refused LABEL WHY ARGS...: boardgen ARGS exits 1, prints nothing and says WHY.
refused() {
	local what=$1 why=$2 rc
	shift 2
	"$tool" "$@" > "$tmp/out" 2> "$tmp/err"
	rc=$?
	if [ $rc = 1 ] && [ ! -s "$tmp/out" ] && grep -q "$why" "$tmp/err"; then
		echo "ok: $what refused: $(cat "$tmp/err")"
	else
		echo "FAIL: $what: exit $rc, stdout $(wc -c < "$tmp/out") bytes, stderr: $(cat "$tmp/err")"
		failed=1
	fi
}

vm=$top/boards/qemu-x86_64-vm/board.hw
refused "bmc of the VM board" 'firmware none' bmc "$vm" /dev/shm acma-test
refused "mpst of the VM board" 'firmware none' mpst "$vm"
refused "ssdt of the VM board" 'firmware none' ssdt "$vm"
x86=$top/boards/qemu-x86_64/board.hw
refused "uboot-env of an x86 board" 'q35 machine' uboot-env "$x86"
refused "dts of an x86 board" 'q35 machine' dts "$x86"
arm=$top/boards/qemu-arm64/board.hw
refused "mpst of the arm64 board" 'x86_64 boards only' mpst "$arm"
exit $failed
