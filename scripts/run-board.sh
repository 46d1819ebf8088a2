#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Boot the selected board and show what it has: `make run`.
#
#   run-board.sh --mode demo --board FILE --kernel IMAGE --initrd CPIO --out DIR
#                [--acpitable AML]...
set -eu
. "$(dirname "$0")/lib/runner.sh"

runner_args "$@"

runner_init "$outdir" "$board"

# fig KEY: a figure of the guest's summary
fig() { awk -v k="$1" '$1 == k { print $2 }' "$out/summary.txt"; }

# summary: what the scaling demo did, the energy it saved, the plot
summary() {
	[ -s "$out/summary.txt" ] || return 0
	if ! board_has_bmc; then
		summary_vm
		return
	fi
	local idle spike again energy
	idle=$(fig idle_ranks_on) spike=$(fig spike_ranks_on) again=$(fig again_ranks_on)
	say
	say "Summary ($BOARD_RANKS ranks of $((BOARD_RANK_MEMORY_MB / BOARD_RANKS)) MiB):"
	say "  idle:       $idle ranks on, memory $(($(fig idle_mem_bytes) >> 20)) MiB"
	say "  load spike: $spike ranks on, memory $(($(fig spike_mem_bytes) >> 20)) MiB"
	say "  idle again: $again ranks on"
	say "  transitions per rank: $(awk '$1 ~ /^transitions_domain/ { sub("transitions_domain", "", $1); printf "%s%s:%s", s, $1, $2; s = " " }' "$out/summary.txt")"
	# the DRAM energy, from the samples: sum of power x interval, against all ranks on
	energy=$(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
		$c["dram_mw"] != "" { if (t != "") { dt = $c["t_s"] - t; a += p * dt; b += q * dt }
			t = $c["t_s"]; p = $c["dram_mw"]; q = $c["all_on_mw"] }
		END { if (b > 0) printf "%.0f %.0f %.1f %.0f", a / 1000, b / 1000, 100 * (b - a) / b, t }' \
		"$out/trace.csv")
	if [ -n "$energy" ]; then
		set -- $energy
		say "  DRAM energy over $4 s: $1 J with acma, $2 J with all ranks always on: $(($2 - $1)) J saved ($3 %)"
	fi
	plot
	if [ "$(fig spike_ok)" != 1 ]; then
		demo_error="the load spike's program did not get its memory (see $out/console.log)"
	elif [ "${idle:-$BOARD_RANKS}" -ge "$BOARD_RANKS" ] || [ "${spike:-0}" -le "${idle:-0}" ] ||
	   [ "${again:-$BOARD_RANKS}" -ge "${spike:-0}" ]; then
		demo_error="the expected transitions did not all happen (ranks on: idle ${idle:-?}, spike ${spike:-?}, idle again ${again:-?})"
	fi
}
# plot: the trace as a PNG, when gnuplot is there
plot() {
	if [ -x "$top/scripts/plot.sh" ] && command -v gnuplot > /dev/null; then
		if "$top/scripts/plot.sh" "$out/trace.csv" "$out/trace.png" "acma on $BOARD_NAME" > "$out/plot.log" 2>&1; then
			say "  plot: $out/trace.png (samples: $out/trace.csv)"
		else
			say "  plot failed: $(tail -n 1 "$out/plot.log")"
		fi
	else
		say "  samples: $out/trace.csv (make deps installs gnuplot; then make plot)"
	fi
}

# summary_vm: a VM board has no ranks and no DRAM power: the guest's memory, as the
# demo reports it (the figures it has), and whether the load spike got its memory.
summary_vm() {
	local k v
	say
	say "Summary (VM guest, ${BOARD_VM_MEMORY_MB} MiB of hot-pluggable memory, balloon $BOARD_BALLOON):"
	for k in idle spike again; do
		v=$(fig ${k}_mem_bytes)
		[ -n "$v" ] || continue
		case $k in
		idle) say "  idle:       memory $((v >> 20)) MiB" ;;
		spike) say "  load spike: memory $((v >> 20)) MiB" ;;
		again) say "  idle again: memory $((v >> 20)) MiB" ;;
		esac
	done
	plot
	[ "$(fig spike_ok)" = 1 ] ||
		demo_error="the load spike's program did not get its memory (see $out/console.log)"
}

start=$(date +%s)
if board_has_bmc; then
	say "acma: booting board $BOARD_NAME ($BOARD_ARCH, $BOARD_QEMU_MACHINE): ${BOARD_BOOT_MEMORY_MB} MiB boot memory + $BOARD_RANKS ranks on $BOARD_DIMMS DIMMs (${BOARD_RANK_MEMORY_MB} MiB), firmware $BOARD_FIRMWARE"
else
	vmem=
	[ "${BOARD_VIRTIO_MEM_MB:-0}" -gt 0 ] && vmem=", virtio-mem ${BOARD_VIRTIO_MEM_MB} MiB (not acma's)"
	say "acma: booting board $BOARD_NAME ($BOARD_ARCH, $BOARD_QEMU_MACHINE): a VM guest with ${BOARD_BOOT_MEMORY_MB} MiB boot memory + ${BOARD_VM_MEMORY_MB} MiB hot-pluggable memory$vmem, balloon $BOARD_BALLOON, scratch disk ${BOARD_SCRATCH_DISK_MB} MiB, no BMC"
fi
bmc_start
qemu_start "$mode" "$kernel" "$initrd"
say
: > "$out/trace.csv"
: > "$out/summary.txt"
live=
[ -t 1 ] && live=1
# end_progress: finish the live progress line before other output
progress_shown=
end_progress() { [ -n "$progress_shown" ] && printf '\n'; progress_shown=; }
# follow: the guest's report as it arrives (scripts/guest/demo says what its lines
# are), until the guest powers off
follow() {
	local n=0 line
	while IFS= read -r line; do
		line=${line%$'\r'}
		case $line in
		"progress "*)
			n=$((n + 1))
			if [ -n "$live" ]; then
				printf '\r\033[K  %s' "${line#progress }"
				progress_shown=1
			elif [ $((n % 15)) = 1 ]; then
				say "  ${line#progress }"
			fi
			;;
		trace,*) echo "${line#trace,}" >> "$out/trace.csv" ;;
		"summary "*) echo "${line#summary }" >> "$out/summary.txt" ;;
		"ranks "*)
			end_progress
			board_has_bmc || continue
			say "Ranks as the BMC reports them (${line#ranks }), over lanplus with ipmitool:"
			"$top/build/host/acma-ranks" -H 127.0.0.1 -p "$lan_port" -U "$CONFIG_BMC_USER" \
				-P "$CONFIG_BMC_USER_PASSWORD" 2>&1 | sed 's/^/  /' || true
			;;
		*) end_progress; printf '%s\n' "$line" ;;
		esac
	done < <(tail -n +1 -f "$out/report.log" --pid="$qemu_pid")
	end_progress
}
follow &
follow_pid=$!
if ! qemu_wait "${CONFIG_RUN_TIMEOUT:-900}"; then
	kill $follow_pid 2>/dev/null
	die "the guest did not finish within ${CONFIG_RUN_TIMEOUT:-900} s (console: $out/console.log)"
fi
wait $follow_pid 2>/dev/null || true
if board_has_bmc; then
	say
	say "BMC over lanplus, as an operator sees it:"
	say "  \$ ipmitool -I lanplus -H 127.0.0.1 -p $lan_port -C 3 -U $CONFIG_BMC_ADMIN_USER -P ... mc info"
	if ! bmc_admin mc info 2>&1 | sed -n '1,6p' | sed 's/^/  /'; then
		die "the BMC did not answer over lanplus (see $out/bmc/bmc.log)"
	fi
fi
grep -q '^Guest:' "$out/report.log" || die "the guest produced no report (console: $out/console.log)"
summary
say
say "Done in $(($(date +%s) - start)) s. Logs: $out/{console,report}.log$(board_has_bmc && echo ", $out/bmc/")"
[ -z "${demo_error:-}" ] || die "$demo_error"
