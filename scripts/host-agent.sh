#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The host side of the guest's request channel (the guest's /dev/ttyS2): what a
# guest test cannot do from inside, the host does for it, one request a line,
# one answer a line ("ok ..." or "err ...").
#
#   readd-dimm ADDR   device_add again the board's pc-dimm that maps guest
#                     physical ADDR (after the guest ejected it)
#   qmp JSON          run one QMP command, answer its reply
#
# Started by the runner with the run's environment (ACMA_QMP, ACMA_BOARD_FILE,
# ACMA_SHM_PREFIX); stdin/stdout are the serial line.
. "$(dirname "$0")/lib/runner.sh"
qmp_sock=$ACMA_QMP

answer() { printf '%s\n' "$*"; }

while IFS= read -r line; do
	line=${line%$'\r'}
	case $line in
	"readd-dimm "*)
		addr=$((${line#readd-dimm }))
		found=
		while read -r rank idx path base size; do
			[ $((base)) = "$addr" ] || continue
			found=1
			reply=$(qmp "{\"execute\":\"device_add\",\"arguments\":{\"driver\":\"pc-dimm\",\"id\":\"dimm-rank$rank-$idx\",\"memdev\":\"mem-rank$rank-$idx\",\"addr\":$addr}}")
			case $reply in
			*'"return"'*) answer "ok dimm-rank$rank-$idx" ;;
			*) answer "err $(echo "$reply" | tr -d '\n')" ;;
			esac
		done < <("$boardgen" backing-files "$ACMA_BOARD_FILE" /dev/shm "$ACMA_SHM_PREFIX")
		[ -n "$found" ] || answer "err no pc-dimm of the board at $addr"
		;;
	"qmp "*)
		answer "ok $(qmp "${line#qmp }" | tr -d '\n')"
		;;
	"")
		;;
	*)
		answer "err unknown request: $line"
		;;
	esac
done
