#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Every rank is its own QEMU memory backend, backed by its own file in the run's private folder and
# mapped at the guest-physical address the board file gives (QMP query-memory-devices).
. "$(dirname "$0")/../../../scripts/lib/runner.sh"
qmp_sock=$ACMA_QMP

devices=$(qmp '{"execute":"query-memory-devices"}')
status=0
while read -r rank idx path base size; do
	dev=dimm-rank$rank-$idx
	entry=$(echo "$devices" | tr '{}' '\n\n' | grep "\"id\": *\"$dev\"")
	if [ -z "$entry" ]; then
		echo "rank $rank range $idx: no device $dev in QEMU"; status=1; continue
	fi
	addr=$(echo "$entry" | sed -n 's/.*"addr": *\([0-9]*\).*/\1/p')
	dsize=$(echo "$entry" | sed -n 's/.*"size": *\([0-9]*\).*/\1/p')
	if [ "$addr" != "$((base))" ] || [ "$dsize" != "$size" ]; then
		printf 'rank %s: QEMU maps %s at 0x%x+%s, board says %s+%s\n' "$rank" "$dev" \
			"$addr" "$dsize" "$base" "$size"
		status=1
	fi
	if [ ! -f "$path" ] || [ "$(stat -c %s "$path")" != "$size" ]; then
		echo "rank $rank: backing file $path missing or not $size bytes"; status=1
	fi
	printf 'rank %s: %s at 0x%x, %s MiB, %s\n' "$rank" "$dev" "$addr" $((size >> 20)) "$path"
done < <("$boardgen" backing-files "$ACMA_BOARD_FILE" "$ACMA_SHM_DIR" "$ACMA_SHM_PREFIX")
exit $status
