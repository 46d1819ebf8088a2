#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# On a private BMC: a rank's backing files live in the run's private folder (0700), and
# a power-off drops a rank's contents or fails: when a backing file is a symlink (the
# file it points to stays untouched), missing, not of the rank's size, or its punch
# fails, the BMC answers an error completion code and the rank stays on, with nothing
# in the SEL. The punch failure comes from a real fallocate() made to fail by an
# LD_PRELOAD shim (lib/punch-fails.c) for one file.
. "$(dirname "$0")/lib/bmc.sh"
own_bmc_setup
shim=$own_dir/punch-fails.so
gcc -shared -fPIC -o "$shim" "$(dirname "$0")/lib/punch-fails.c" -ldl || fail "cannot build the shim"
file() { "$boardgen" backing-files "$board_file" "$shm_dir" "$shm_prefix" | awk -v r="$1" '$1 == r { print $3 }'; }
f2=$(file 2) f3=$(file 3) f4=$(file 4) f5=$(file 5) f6=$(file 6)
LD_PRELOAD=$shim ACMA_TEST_PUNCH_FAILS=$f2 own_bmc_start

# every backing file of the BMC's configuration is in a folder only we may enter
for f in $(sed -n 's/.* file=\([^,]*\),.*/\1/p' "$out/bmc/ranks.conf"); do
	d=$(dirname "$f")
	[ "$(stat -c '%a %u' "$d")" = "700 $(id -u)" ] ||
		fail "backing file $f is in $d, mode $(stat -c %a "$d"), owner $(stat -c %u "$d"): not private"
done
echo "ok: backing files in $(dirname "$f3"), mode 700"

mark() { printf 'acma-%s' "$2" | dd of="$1" bs=1 seek=4096 conv=notrunc status=none; }
peek() { dd if="$1" bs=1 skip=4096 count=11 status=none | tr -d '\0'; }
# state RANK: the rank's state and transition count (0x30 0x43, bytes 2-3)
state() { oem user 0x43 "$1" | cut -d' ' -f2-3; }

# a symlink planted in the place of rank 3's file, to a file of the same size
victim=$own_dir/victim
truncate -s "$(stat -c %s "$f3")" "$victim"
mark "$victim" victim
rm "$f3" && ln -s "$victim" "$f3"
expect "rank 3 off, its file a symlink" "$(oem admin 0x44 3 1)" "cc=0xff"
expect "rank 3 after the refusal" "$(state 3)" "00 00"
expect "the symlink's target" "$(peek "$victim")" "acma-victim"

rm "$f4"
expect "rank 4 off, its file missing" "$(oem admin 0x44 4 1)" "cc=0xff"
expect "rank 4 after the refusal" "$(state 4)" "00 00"

truncate -s 4096 "$f5"
expect "rank 5 off, its file of the wrong size" "$(oem admin 0x44 5 1)" "cc=0xff"
expect "rank 5 after the refusal" "$(state 5)" "00 00"

mark "$f2" rank2
expect "rank 2 off, its punch failing" "$(oem admin 0x44 2 1)" "cc=0xff"
expect "rank 2 after the refusal" "$(state 2)" "00 00"
expect "rank 2's contents" "$(peek "$f2")" "acma-rank2"
grep "rank 2: .*$f2.*Input/output error" "$out/bmc/bmc.log" || fail "the punch failure is not in the BMC log"

mark "$f6" rank6
expect "rank 6 off, all well" "$(oem admin 0x44 6 1)" "06 01 00"
expect "rank 6's contents" "$(peek "$f6")" ""
expect "SEL records: rank 6's only" "$(bmc_admin sel elist 2>/dev/null | grep -c 'Memory Device Disabled')" 1
