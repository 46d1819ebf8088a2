#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The host side of the guest's request channel (the guest's $ACMA_REQUEST_TTY:
# /dev/ttyS2 on q35, /dev/hvc1 on virt): what a guest test cannot do from inside, the
# host does for it, one request a line, one answer a line ("ok ..." or "err ...").
#
#   readd-dimm ADDR   device_add again the board's pc-dimm that maps guest
#                     physical ADDR (after the guest ejected it)
#   qmp JSON          run one QMP command, answer its reply
#   rank N            rank N as the BMC reports it to ipmitool over lanplus (the
#                     way an operator checks it): "ok STATE-NAME TRANSITIONS
#                     ALLOCATED-BYTES", the last being what the rank's backing
#                     files still hold on the host (0 once the BMC dropped them)
#   bmc hang|resume   stop the BMC process (SIGSTOP: it answers nothing, as a hung
#                     BMC) or let it go on (SIGCONT)
#   bmc late MS       the BMC carries out the next power change at once and
#                     answers it MS ms later (0: on time after all), through the
#                     plugin's faults file (firmware-glue/bmc/fault.c)
#   bmc cc HEX        the BMC answers the next power change with completion code
#                     HEX and does not carry it out (an honest failure)
#   bmc short|echo    the BMC carries out the next power change and answers it
#                     with too few bytes (short) or with another domain echoed
#                     (echo): a change made, its answer not to be believed
#   bmc kill          SIGKILL the BMC process, as a crash or a power cut of the BMC
#   bmc restart       start the BMC again (after bmc kill) with the run's command
#                     line, its state file as the dead one left it; "ok PID" once
#                     it listens again (QEMU reconnects to it within 10 s)
#   bmc id MFG PROD   the next bmc restart starts another vendor's BMC: Get Device
#                     ID reports manufacturer MFG and product PROD (decimal or 0x
#                     hex) instead of the board's; only while the BMC is stopped
#   balloon BYTES     set the virtio-balloon target: the guest's size, as QMP
#                     'balloon' takes it
#   query-balloon     "ok ACTUAL-BYTES": the guest's size as the balloon reports it
#   ram-size          "ok BYTES": the guest's RAM, boot memory plus pc-dimms
#   qemu-rss          "ok KIB": QEMU's resident memory on the host (VmRSS)
#   qemu-holes        "ok RAM-KIB HOLE-KIB WHOLE-2M-KIB": QEMU's guest RAM mappings
#                     (its anonymous read-write mappings of 256 MiB or more), how much of them
#                     is not resident on the host, and how much of that lies in
#                     whole 2 MiB-aligned holes (what host huge pages need)
#   textfile NAME DATA  node metrics for node_exporter's textfile collector: DATA is
#                     the file gzipped and base64-encoded on one line (the guest's
#                     `acmactl status --format=prometheus`); written whole, through a
#                     temporary file and a rename, as $ACMA_TEXTFILE_DIR/NAME. NAME is
#                     letters, digits, '_' and '-' ending in .prom; "ok BYTES"
#   snapshot NAME DATA  the same into $ACMA_SNAPSHOT_DIR/NAME (NAME: letters, digits,
#                     '_', '-' and '.'): what the guest reported besides its metrics,
#                     e.g. acmactl's JSON, for the host to compare (make fleet)
#
# Started by the runner with the run's environment (ACMA_QMP, ACMA_BOARD_FILE,
# ACMA_SHM_PREFIX, ACMA_SHM_DIR, ACMA_LAN_PORT, ACMA_BMC_PID, ACMA_BMC_FAULTS,
# ACMA_QEMU_PID, ACMA_BMC_DIR, ACMA_KCS_SOCK; for make fleet also ACMA_TEXTFILE_DIR and ACMA_SNAPSHOT_DIR, without
# which textfile and snapshot are refused); stdin/stdout are the serial line.
. "$(dirname "$0")/lib/runner.sh"
qmp_sock=$ACMA_QMP
lan_port=${ACMA_LAN_PORT:-}
# the BMC's process: the runner's, or the one "bmc restart" started
bmc_pid=${ACMA_BMC_PID:-}
# qemu_holes PID: "RAM-KIB HOLE-KIB WHOLE-2M-KIB" over PID's guest RAM mappings,
# from /proc/PID/pagemap (bit 63: present, bit 62: swapped).
qemu_holes() {
	local pid=$1 range perms off dev inode path start end
	[ -r "/proc/$pid/maps" ] || return 0
	while read -r range perms off dev inode path; do
		[ -z "$path" ] && [ "$perms" = rw-p ] || continue
		start=$((16#${range%-*} / 4096)) end=$((16#${range#*-} / 4096))
		[ $((end - start)) -ge 65536 ] || continue
		dd if="/proc/$pid/pagemap" bs=65536 iflag=skip_bytes,count_bytes \
			skip=$((start * 8)) count=$(((end - start) * 8)) 2> /dev/null |
			od -An -v -t x8 -w8 | awk -v first="$start" '
			{ ram++ }
			/^ *[0-3]/ { hole++; run[int((first + NR - 1) / 512)]++ }
			END { for (g in run) if (run[g] == 512) whole += 512
				printf "%d %d %d\n", ram * 4, hole * 4, whole * 4 }'
	done < "/proc/$pid/maps" |
		awk '{ r += $1; h += $2; w += $3 } END { if (NR) printf "%d %d %d\n", r, h, w }'
}

mapfile -t state_names < <("$boardgen" states "$ACMA_BOARD_FILE" | cut -d' ' -f1)

# rank_answer N: the "rank N" request.
rank_answer() {
	local raw bytes alloc=0 path
	raw=$(bmc_admin raw 0x30 0x43 "$1" 2>&1) || { answer "err ipmitool: $(echo "$raw" | tail -n 1)"; return; }
	read -ra bytes <<< "$(echo "$raw" | tr '\n' ' ')"
	[ "${#bytes[@]}" -ge 6 ] || { answer "err ipmitool answered '$raw'"; return; }
	while read -r rank _ path _ _; do
		[ "$rank" = "$1" ] || continue
		alloc=$((alloc + $(stat -c '%b * %B' "$path")))
	done < <("$boardgen" backing-files "$ACMA_BOARD_FILE" "$ACMA_SHM_DIR" "$ACMA_SHM_PREFIX")
	answer "ok ${state_names[$((16#${bytes[1]}))]:-state$((16#${bytes[1]}))}" \
		"$((16#${bytes[5]}${bytes[4]}${bytes[3]}${bytes[2]}))" "$alloc"
}

answer() { printf '%s\n' "$*"; }

# put_file DIR NAME DATA: the textfile and snapshot requests. DATA is decoded and
# unpacked into a temporary file beside the target (a name the textfile collector does
# not read: it reads only *.prom), at most 4 MiB of it, then renamed over DIR/NAME; the
# name was checked by the caller, so nothing outside DIR is written.
put_file() {
	local dir=$1 name=$2 data=$3 tmp bytes
	[ -n "$dir" ] && [ -d "$dir" ] || { answer "err no directory for this request on the host"; return; }
	tmp=$(mktemp "$dir/.$name.XXXXXX") || { answer "err cannot write in $dir"; return; }
	if ! (set -o pipefail; printf '%s' "$data" | base64 -d 2> /dev/null |
		gzip -dc 2> /dev/null | head -c $((4 << 20))) > "$tmp"; then
		rm -f "$tmp"
		answer "err $name: not gzip data in base64, or over 4 MiB"
		return
	fi
	bytes=$(stat -c %s "$tmp")
	chmod 644 "$tmp"
	if mv -f "$tmp" "$dir/$name"; then
		answer "ok $bytes"
	else
		rm -f "$tmp"
		answer "err cannot rename into $dir/$name"
	fi
}

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
		done < <("$boardgen" backing-files "$ACMA_BOARD_FILE" "$ACMA_SHM_DIR" "$ACMA_SHM_PREFIX")
		[ -n "$found" ] || answer "err no pc-dimm of the board at $addr"
		;;
	"bmc hang"|"bmc resume"|"bmc kill")
		case $line in
		"bmc hang") sig=STOP ;;
		"bmc resume") sig=CONT ;;
		*) sig=KILL ;;
		esac
		if [ -n "$bmc_pid" ] && kill -$sig "$bmc_pid" 2>/dev/null; then
			if [ $sig = KILL ]; then
				# gone once /proc says so (it is not this process's child)
				for _ in $(seq 50); do [ -d /proc/"$bmc_pid" ] || break; sleep 0.1; done
			fi
			answer "ok $line"
		else
			answer "err no BMC process to signal"
		fi
		;;
	"bmc restart")
		if [ -z "${ACMA_BMC_DIR:-}" ] || [ ! -x "$ACMA_BMC_DIR/launch" ]; then
			answer "err no BMC"
		elif [ -n "$bmc_pid" ] && kill -0 "$bmc_pid" 2>/dev/null; then
			answer "err the BMC (pid $bmc_pid) is still running"
		else
			"$ACMA_BMC_DIR/launch" > /dev/null 2>&1 < /dev/null &
			bmc_pid=$!
			echo "$bmc_pid" > "$ACMA_BMC_DIR/restarted.pid"
			if bmc_wait_ready "$bmc_pid" "$ACMA_KCS_SOCK" "$lan_port" \
					"$ACMA_BMC_DIR/bmc.log" 2> /dev/null; then
				answer "ok $bmc_pid"
			else
				answer "err the BMC did not start again: $(tail -n 1 "$ACMA_BMC_DIR/bmc.log")"
			fi
		fi
		;;
	"bmc id "*)
		set -- ${line#bmc id }
		conf=${ACMA_BMC_DIR:-}/ranks.conf
		if [ $# != 2 ] || ! [[ $1 =~ ^(0x[0-9a-fA-F]{1,5}|[0-9]{1,7})$ ]] ||
				! [[ $2 =~ ^(0x[0-9a-fA-F]{1,4}|[0-9]{1,5})$ ]]; then
			answer "err bmc id wants a manufacturer and a product ID"
		elif [ -z "${ACMA_BMC_DIR:-}" ] || [ ! -f "$conf" ]; then
			answer "err no BMC"
		elif [ -n "$bmc_pid" ] && kill -0 "$bmc_pid" 2>/dev/null; then
			answer "err the BMC (pid $bmc_pid) is still running"
		else
			sed "s/^bmc-id .*/bmc-id $1 $2/" "$conf" > "$conf.tmp" &&
				mv "$conf.tmp" "$conf" && answer "ok $(grep '^bmc-id ' "$conf")"
		fi
		;;
	"bmc cc "*|"bmc short"|"bmc echo")
		case $line in
		"bmc cc "*)
			cc=${line#bmc cc }
			case $cc in
			0x[0-9a-fA-F][0-9a-fA-F]) ;;
			*) answer "err bmc cc wants a code, 0xNN"; continue ;;
			esac
			fault="cc $((cc))" ;;
		"bmc short") fault="short 1" ;;
		*) fault="echo 1" ;;
		esac
		if [ -z "${ACMA_BMC_FAULTS:-}" ]; then
			answer "err no BMC"
		else
			echo "$fault" > "$ACMA_BMC_FAULTS.tmp" &&
				mv "$ACMA_BMC_FAULTS.tmp" "$ACMA_BMC_FAULTS" && answer "ok $fault"
		fi
		;;
	"bmc late "*)
		ms=${line#bmc late }
		case $ms in *[!0-9]*|"") answer "err bmc late wants milliseconds"; continue ;; esac
		if [ -z "${ACMA_BMC_FAULTS:-}" ]; then
			answer "err no BMC"
		elif [ "$ms" = 0 ]; then
			rm -f "$ACMA_BMC_FAULTS" && answer "ok on time"
		else
			echo "late-ms $ms" > "$ACMA_BMC_FAULTS.tmp" &&
				mv "$ACMA_BMC_FAULTS.tmp" "$ACMA_BMC_FAULTS" && answer "ok late $ms"
		fi
		;;
	"rank "*)
		rank_answer "${line#rank }"
		;;
	"balloon "*)
		bytes=${line#balloon }
		case $bytes in *[!0-9]*|"") answer "err balloon wants a size in bytes"; continue ;; esac
		reply=$(qmp "{\"execute\":\"balloon\",\"arguments\":{\"value\":$bytes}}")
		case $reply in
		*'"return"'*) answer "ok $bytes" ;;
		*) answer "err $(echo "$reply" | tr -d '\n')" ;;
		esac
		;;
	query-balloon)
		reply=$(qmp '{"execute":"query-balloon"}' | tr -d '\n')
		actual=$(echo "$reply" | sed -n 's/.*"actual": *\([0-9]*\).*/\1/p')
		if [ -n "$actual" ]; then answer "ok $actual"; else answer "err $reply"; fi
		;;
	ram-size)
		reply=$(qmp '{"execute":"query-memory-size-summary"}' | tr -d '\n')
		base=$(echo "$reply" | sed -n 's/.*"base-memory": *\([0-9]*\).*/\1/p')
		plugged=$(echo "$reply" | sed -n 's/.*"plugged-memory": *\([0-9]*\).*/\1/p')
		if [ -n "$base" ]; then answer "ok $((base + ${plugged:-0}))"; else answer "err $reply"; fi
		;;
	qemu-rss)
		rss=$(awk '/^VmRSS:/ { print $2 }' "/proc/${ACMA_QEMU_PID:-none}/status" 2>/dev/null)
		if [ -n "$rss" ]; then answer "ok $rss"; else answer "err no QEMU process (ACMA_QEMU_PID)"; fi
		;;
	qemu-holes)
		holes=$(qemu_holes "${ACMA_QEMU_PID:-none}")
		if [ -n "$holes" ]; then answer "ok $holes"; else answer "err no QEMU process (ACMA_QEMU_PID)"; fi
		;;
	"qmp "*)
		answer "ok $(qmp "${line#qmp }" | tr -d '\n')"
		;;
	"textfile "*|"snapshot "*)
		read -r req name data <<< "$line"
		if [ "$req" = textfile ]; then
			[[ $name =~ ^[A-Za-z0-9_-]+\.prom$ ]] ||
				{ answer "err textfile wants NAME.prom (letters, digits, _ and -)"; continue; }
			put_file "${ACMA_TEXTFILE_DIR:-}" "$name" "$data"
		else
			[[ $name =~ ^[A-Za-z0-9_-][A-Za-z0-9_.-]*$ ]] ||
				{ answer "err snapshot wants a NAME of letters, digits, _, - and ."; continue; }
			put_file "${ACMA_SNAPSHOT_DIR:-}" "$name" "$data"
		fi
		;;
	"")
		;;
	*)
		answer "err unknown request: $line"
		;;
	esac
done
