#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# One board of `make fleet` (scripts/fleet.sh starts one per board, in the background):
# its BMC and QEMU as the runner boots them for make run, the scripted day (the demo)
# with acma.fleet=INTERVAL, so that the guest sends its metrics to the host agent every
# INTERVAL seconds (scripts/guest/fleet.sh), and the board's own node_exporter
# (Debian's prometheus-node-exporter, textfile collector only) on a free loopback port,
# reading what the agent writes into $out/textfile.
#
#   fleet-board.sh --board FILE --kernel IMAGE --initrd CPIO --out DIR --interval SECONDS
#                  --go FILE [--acpitable AML]...
#
# The guest boots once FILE exists (fleet.sh makes it when Prometheus runs), so that the
# whole day is recorded.
# It writes $out/board.env once the BMC and node_exporter run (names, ports, pids: what
# fleet.sh needs), $out/phases (the host's time at each phase's end, from the demo's
# "ranks PHASE" lines) and, at the end of the day, $out/day.env (how the day went).
# The day ends when the guest says it sent its last metrics: QEMU is paused then (QMP
# stop), and the BMC, the paused guest and node_exporter stay as they are until this
# script is stopped (SIGTERM): then it stops what it started, as the runner does.
set -eu
. "$(dirname "$0")/lib/runner.sh"

interval= go=
args=()
while [ $# -gt 0 ]; do
	case $1 in
	--interval) interval=$2 ;;
	--go) go=$2 ;;
	*) args+=("$1" "$2") ;;
	esac
	shift 2
done
runner_args "${args[@]}"
[ -n "$interval" ] && [ -n "$go" ] || die "fleet-board.sh: --interval SECONDS and --go FILE are needed"

runner_init "$outdir" "$board"
node_pid= follow_pid=
fleet_board_cleanup() {
	[ -z "$follow_pid" ] || kill "$follow_pid" 2>/dev/null || true
	stop_pid "$node_pid" node_exporter
	node_pid= follow_pid=
	runner_cleanup
}
trap fleet_board_cleanup EXIT
# stopped by fleet.sh at its end: no "interrupted"
trap 'exit 0' TERM
trap 'exit 130' INT

board_has_bmc || die "board $BOARD_NAME has no BMC (firmware none): not a fleet board"
mkdir -p "$out/textfile" "$out/snapshot"
bmc_start

# node_exporter: only the textfile collector, on 127.0.0.1, nothing else read
node_port=$(pick_port)
prometheus-node-exporter --web.listen-address="127.0.0.1:$node_port" \
	--collector.disable-defaults --collector.textfile \
	--collector.textfile.directory="$out/textfile" > "$out/node-exporter.log" 2>&1 < /dev/null &
node_pid=$!
for _ in $(seq 100); do
	port_listening "$node_port" tcp && break
	kill -0 $node_pid 2>/dev/null || die "node_exporter exited: $(tail -n 3 "$out/node-exporter.log")"
	sleep 0.1
done
port_listening "$node_port" tcp || die "node_exporter did not open 127.0.0.1:$node_port"
step NODE "node_exporter pid $node_pid: 127.0.0.1:$node_port, textfile $out/textfile"

cat > "$out/board.env.tmp" <<-EOF
board=$BOARD_NAME
ranks=$BOARD_RANKS
lan_port=$lan_port
bmc_pid=$bmc_pid
bmc_user=$CONFIG_BMC_USER
bmc_password=$CONFIG_BMC_USER_PASSWORD
node_port=$node_port
node_pid=$node_pid
run_dir=$run_dir
EOF
mv "$out/board.env.tmp" "$out/board.env"

for _ in $(seq 1200); do
	[ -e "$go" ] && break
	sleep 0.1
done
[ -e "$go" ] || die "no go from fleet.sh ($go) within 120 s"
export ACMA_TEXTFILE_DIR=$out/textfile ACMA_SNAPSHOT_DIR=$out/snapshot
CONFIG_GUEST_CMDLINE="${CONFIG_GUEST_CMDLINE:-} acma.fleet=$interval"
day_start=$(date +%s)
qemu_start demo "$kernel" "$initrd"

# the phases' ends as the host sees them, for the fleet's timeline
: > "$out/phases"
(
	tail -n +1 -f "$out/report.log" --pid="$qemu_pid" | while IFS= read -r line; do
		case ${line%$'\r'} in
		"ranks "*) echo "$(date +%s) ${line#ranks }" | tr -d '\r' >> "$out/phases" ;;
		esac
	done
) &
follow_pid=$!
# The day ends when the guest has sent its last metrics: then QEMU is paused (QMP
# stop), so that the node stays as it reported and its BMC as it is now.
finished=0
deadline=$(($(date +%s) + ${CONFIG_RUN_TIMEOUT:-900}))
while kill -0 "$qemu_pid" 2>/dev/null && [ "$(date +%s)" -lt $deadline ]; do
	if tr -d '\r' < "$out/report.log" | grep -q '^fleet: last metrics sent'; then
		qmp '{"execute":"stop"}' > "$out/qmp-stop.log"
		grep -q '"return"' "$out/qmp-stop.log" && finished=1
		break
	fi
	sleep 0.5
done
day_end=$(date +%s)
kill -0 "$qemu_pid" 2>/dev/null || { wait "$qemu_pid" 2>/dev/null || true; qemu_pid=; }

# fig KEY: a figure of the demo's summary lines
fig() { tr -d '\r' < "$out/report.log" | awk -v k="$1" '$1 == "summary" && $2 == k { print $3 }'; }
{
	echo "finished=$finished"
	echo "day_start=$day_start"
	echo "day_end=$day_end"
	echo "idle_ranks_on=$(fig idle_ranks_on)"
	echo "spike_ranks_on=$(fig spike_ranks_on)"
	echo "again_ranks_on=$(fig again_ranks_on)"
	echo "spike_ok=$(fig spike_ok)"
} > "$out/day.env.tmp"
mv "$out/day.env.tmp" "$out/day.env"

# the BMC and node_exporter stay up until fleet.sh stops this script
while :; do sleep 1; done
