#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# boardgen on the real boards (tests/tools/boardgen, see its README.md): every board
# file is valid, and for every board shell, needs, qemu-args and backing-files print
# byte for byte the expected output: the server boards' QEMU arguments do not change
# by accident, the VM board's pc-dimms backed by host RAM and its virtio-balloon are
# pinned. Also: a VM board (firmware none) gets no BMC configuration and no ACPI
# tables, with an error saying why.
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
done

# refused LABEL ARGS...: boardgen ARGS exits 1, prints nothing and says 'firmware none'.
refused() {
	local what=$1 rc
	shift
	"$tool" "$@" > "$tmp/out" 2> "$tmp/err"
	rc=$?
	if [ $rc = 1 ] && [ ! -s "$tmp/out" ] && grep -q 'firmware none' "$tmp/err"; then
		echo "ok: $what refused: $(cat "$tmp/err")"
	else
		echo "FAIL: $what: exit $rc, stdout $(wc -c < "$tmp/out") bytes, stderr: $(cat "$tmp/err")"
		failed=1
	fi
}

vm=$top/boards/qemu-x86_64-vm/board.hw
refused "bmc of the VM board" bmc "$vm" /dev/shm acma-test
refused "mpst of the VM board" mpst "$vm"
refused "ssdt of the VM board" ssdt "$vm"
exit $failed
