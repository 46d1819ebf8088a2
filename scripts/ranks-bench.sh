#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# `make ranks-bench`: what a status of every rank costs acma-ranks (tools/acma-ranks),
# host only (no QEMU): private BMCs (ipmi_sim with acma's plugin, as the host tests
# start them, tests/e2e/host/lib/bmc.sh) with the default board's 8 ranks and a
# generated board of 64 ranks (16 DIMMs x 4 ranks x 128 MiB, every 4th rank off), each
# read RUNS times over lanplus on loopback. Printed: the median wall time and the
# ipmitool runs of one status (counted by a wrapper, --ipmitool), for build/host/
# acma-ranks and, with a baseline, for acma-ranks built from another revision in the
# same run, side by side (this machine is shared and noisy: absolute figures drift).
#
#   ranks-bench.sh [--baseline REV] [--runs N]
#
# REV is any git revision (e.g. main); its tools/acma-ranks and tools/lib are built
# with the same compiler flags into a private folder.
# shellcheck source=../tests/e2e/host/lib/bmc.sh disable=SC2154
. "$(dirname "$0")/../tests/e2e/host/lib/bmc.sh"

baseline='' runs=5
while [ $# -gt 0 ]; do
	case $1 in
	--baseline) baseline=$2; shift 2 ;;
	--runs) runs=$2; shift 2 ;;
	*) die "usage: $0 [--baseline REV] [--runs N]" ;;
	esac
done
tool=$top/build/host/acma-ranks
[ -x "$tool" ] || die "$tool is missing: run make tools"
own_bmc_setup
work=$own_dir/bench
mkdir -p "$work"

tools=("$tool") names=("this tree")
if [ -n "$baseline" ]; then
	rev=$(git -C "$top" rev-parse --short "$baseline") || die "unknown revision $baseline"
	git -C "$top" archive "$rev" tools/acma-ranks tools/lib | tar -x -C "$work" ||
		die "cannot extract tools/ of $rev"
	# shellcheck disable=SC2046
	gcc -std=gnu11 -O2 -Wall -I"$work/tools/lib" -o "$work/acma-ranks-$rev" \
		$(ls "$work"/tools/acma-ranks/*.c "$work"/tools/lib/*.c) ||
		die "cannot build acma-ranks of $rev"
	tools+=("$work/acma-ranks-$rev") names+=("$baseline ($rev)")
fi

# Counts its runs in $work/runs, then is ipmitool.
cat > "$work/count-ipmitool" <<-COUNT
#!/bin/sh
echo run >> "$work/runs"
exec ipmitool "\$@"
COUNT
chmod +x "$work/count-ipmitool"

# The 64-rank board: the default board's figures, 16 DIMMs of 4 ranks of 128 MiB.
{
	sed -n '/^arch/,/^power-state  *off/p' "$top/boards/qemu-x86_64/board.hw"
	echo "board qemu-x86_64-64ranks"
	echo "description 64 ranks for ranks-bench.sh"
	for d in $(seq 0 15); do echo "dimm DIMM$d 4"; done
	for r in $(seq 0 63); do
		printf 'rank %d DIMM%d 0x%x+128M\n' "$r" $((r / 4)) $((0x100000000 + r * 0x8000000))
	done
} > "$work/board64.hw"
"$boardgen" check "$work/board64.hw" > /dev/null || die "the 64-rank board is not valid"

# bench NAME-OF-BOARD: every tool against the running BMC, one line each.
bench() {
	local i t ms times rc
	for i in "${!tools[@]}"; do
		times=()
		for _ in $(seq "$runs"); do
			t=$(date +%s%N)
			"${tools[$i]}" -H 127.0.0.1 -p "$lan_port" -U "$CONFIG_BMC_USER" \
				-P "$CONFIG_BMC_USER_PASSWORD" > "$work/out" 2> "$work/err"
			rc=$?
			times+=($((($(date +%s%N) - t) / 1000000)))
			[ $rc = 0 ] || die "${names[$i]} exits $rc: $(cat "$work/err")"
		done
		ms=$(printf '%s\n' "${times[@]}" | sort -n | sed -n "$(((runs + 1) / 2))p")
		rm -f "$work/runs"
		"${tools[$i]}" -H 127.0.0.1 -p "$lan_port" -U "$CONFIG_BMC_USER" \
			-P "$CONFIG_BMC_USER_PASSWORD" --ipmitool "$work/count-ipmitool" > /dev/null 2>&1
		printf '%5s  %-24s %13s %10s\n' "$1" "${names[$i]}" "$(wc -l < "$work/runs")" "$ms"
	done
}

# ranks_off STEP: every STEP-th rank off, as an administrator.
ranks_off() {
	local r=0
	while [ $r -lt "$2" ]; do
		bmc_admin raw 0x30 0x44 $r 1 > /dev/null || die "raw 0x30 0x44 $r 1"
		r=$((r + $1))
	done
}

say "acma-ranks: one status of every rank, private BMC on loopback (ipmi_sim), median of $runs"
printf '%5s  %-24s %13s %10s\n' ranks acma-ranks "ipmitool runs" "wall ms"
own_bmc_start
ranks_off 4 8
bench 8
own_bmc_stop
rm -rf "$out/bmc"
board_file=$work/board64.hw
while read -r _ _ path _ size; do
	truncate -s "$size" "$path" || die "cannot create $path"
done < <("$boardgen" backing-files "$board_file" "$shm_dir" "$shm_prefix")
own_bmc_start
ranks_off 4 64
bench 64
