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
start=$(date +%s)
say "acma: booting board $BOARD_NAME ($BOARD_ARCH, $BOARD_QEMU_MACHINE): ${BOARD_BOOT_MEMORY_MB} MiB boot memory + $BOARD_RANKS ranks on $BOARD_DIMMS DIMMs (${BOARD_RANK_MEMORY_MB} MiB), firmware $BOARD_FIRMWARE"
bmc_start
qemu_start "$mode" "$kernel" "$initrd"
say
# Show the guest's report as it arrives, until the guest powers off.
tail -n +1 -f "$out/report.log" --pid="$qemu_pid" &
tail_pid=$!
if ! qemu_wait "${CONFIG_RUN_TIMEOUT:-900}"; then
	kill $tail_pid 2>/dev/null
	die "the guest did not finish within ${CONFIG_RUN_TIMEOUT:-900} s (console: $out/console.log)"
fi
wait $tail_pid 2>/dev/null || true
say
say "BMC over lanplus, as an operator sees it:"
say "  \$ ipmitool -I lanplus -H 127.0.0.1 -p $lan_port -C 3 -U $CONFIG_BMC_ADMIN_USER -P ... mc info"
if ! bmc_admin mc info 2>&1 | sed -n '1,6p' | sed 's/^/  /'; then
	die "the BMC did not answer over lanplus (see $out/bmc/bmc.log)"
fi
say
say "Done in $(($(date +%s) - start)) s. Logs: $out/{console,report}.log, $out/bmc/"
grep -q '^Guest:' "$out/report.log" || die "the guest produced no report (console: $out/console.log)"
