#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Page migration by memory hot-unplug against the page-copy bandwidth, for several
# kernels in the same plain guest (tests/bench/MIGRATION.md): a q35 TCG guest, 2 vCPUs,
# 4 GiB (2 GiB of it ZONE_MOVABLE, movablecore=), a busybox initramfs that runs
# tests/bench/migrate/migbench (idle, then -w: the data's owner keeps writing).
#
#   migrate-bench.sh [-r ROUNDS] [-c CPU] [-a 'EXTRA CMDLINE'] [-p] NAME=BZIMAGE[:CMDLINE][@CPU]...
#
# Boots each kernel in turn, ROUNDS times (default 3), alternating, and prints one
# "NAME migbench ..." line per measurement, then the medians per kernel and mode.
# CMDLINE is added to the guest's command line. -c sets QEMU's -cpu (default max, as
# scripts/lib/runner.sh boots the boards); @CPU sets it for one kernel. Every boot's
# console is kept in build/migrate-bench/NAME.ROUND.log ($MIGRATE_WORK to change). -p
# samples the vCPUs' RIPs through QEMU's monitor while the guest offlines
# (tests/bench/migrate/ripsample.py, symbols from the System.map of the kernel's tree,
# three folders above BZIMAGE): NAME.ROUND.prof beside the logs.
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
work=${MIGRATE_WORK:-$top/build/migrate-bench}
rounds=3 extra='' profile='' cpu=max
while getopts r:c:a:p o; do
	case $o in
	p) profile=1 ;;
	c) cpu=$OPTARG ;;
	r) rounds=$OPTARG ;;
	a) extra=$OPTARG ;;
	*) exit 1 ;;
	esac
done
shift $((OPTIND - 1))
[ $# -gt 0 ] || { sed -n '2,/^set/p' "$0" | grep '^#' >&2; exit 1; }
mkdir -p "$work"

# The initramfs: busybox-static, migbench, an init that runs it and powers off.
root=$work/initramfs.d
rm -rf "$root"
mkdir -p "$root"/bin "$root"/proc "$root"/sys "$root"/dev "$root"/tmp
cp /bin/busybox "$root/bin/busybox"
for a in sh mount cat echo poweroff sleep; do ln -s busybox "$root/bin/$a"; done
gcc -O2 -static -Wall -o "$root/bin/migbench" "$top/tests/bench/migrate/migbench.c"
cat > "$root/init" <<'INIT'
#!/bin/sh
mount -t proc proc /proc
mount -t sysfs sysfs /sys
mount -t devtmpfs devtmpfs /dev
echo "# thp $(cat /sys/kernel/mm/transparent_hugepage/enabled 2>/dev/null || echo none)"
echo "# $(cat /proc/version)"
migbench 1024
migbench -w 1024
poweroff -f
INIT
chmod 755 "$root/init"
(cd "$root" && find . | LC_ALL=C sort | cpio -o -H newc --quiet -R 0:0) | gzip -1 > "$work/initramfs.cpio.gz"

results=$work/results.$$
: > "$results"
for r in $(seq 1 "$rounds"); do
	for k in "$@"; do
		name=${k%%=*} spec=${k#*=} kcpu=$cpu
		case $spec in *@*) kcpu=${spec##*@} spec=${spec%@*} ;; esac
		image=${spec%%:*} cmdline=
		[ "$spec" = "$image" ] || cmdline=${spec#*:}
		log=$work/$name.$r.log
		mon=
		[ -z "$profile" ] || { mon=$work/monitor.sock; rm -f "$mon"; }
		timeout 600 nice qemu-system-x86_64 -M q35 -accel tcg -cpu "$kcpu" -smp 2 -m 4G \
			-nodefaults -display none -no-reboot -serial stdio \
			${mon:+-monitor unix:$mon,server=on,wait=off} \
			-kernel "$image" -initrd "$work/initramfs.cpio.gz" \
			-append "console=ttyS0 nokaslr panic=-1 movablecore=2G $extra $cmdline" \
			< /dev/null > "$log" 2>&1 &
		qemu=$!
		if [ -n "$profile" ]; then
			python3 "$top/tests/bench/migrate/ripsample.py" "$mon" \
				"$(dirname "$image")/../../../System.map" 0.005 "$log" > "$work/$name.$r.prof" || true
		fi
		wait $qemu || true
		tr -d '\r' < "$log" | grep '^migbench ' | sed "s/^/$name /" | tee -a "$results"
		tr -d '\r' < "$log" | grep -q '^migbench ' || echo "$name: no result, see $log" >&2
	done
done

echo
printf '%-16s %-8s %10s %10s %8s %5s %9s\n' kernel mode "offline" "copy" ratio runs "THP MiB"
printf '%-16s %-8s %10s %10s %8s %5s %9s\n' "" "" "GiB/s" "GiB/s" "" "" ""
for k in "$@"; do
	name=${k%%=*}
	for mode in idle writing; do
		awk -v n="$name" -v m="$mode" '$1 == n && $3 == m {
			for (i = 4; i < NF; i += 2) v[$i, ++c[$i]] = $(i + 1) }
		function med(key,   k, j, t, a, x) {
			x = c[key]; for (k = 1; k <= x; k++) a[k] = v[key, k]
			for (k = 1; k <= x; k++) for (j = k + 1; j <= x; j++) if (a[j] < a[k]) { t = a[k]; a[k] = a[j]; a[j] = t }
			return x % 2 ? a[(x + 1) / 2] : (a[x / 2] + a[x / 2 + 1]) / 2 }
		END { if (c["ratio"]) printf "%-16s %-8s %10.3f %10.3f %7.2fx %5d %9d\n", n, m,
			med("offline_gibps"), med("copy_gibps"), med("ratio"), c["ratio"], med("thp_mib") }' "$results"
	done
done
