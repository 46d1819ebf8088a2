# SPDX-License-Identifier: GPL-2.0
# The guest's part of `make fleet` (scripts/fleet.sh), sourced by the demo when the
# kernel command line has acma.fleet=SECONDS: every SECONDS the node's metrics,
# `acmactl status --format=prometheus`, go to the host's agent over the request line
# (host_request textfile), which writes them into the board's node_exporter textfile
# directory. At the end of the day fleet_final sends the last metrics between two
# `acmactl status --json` (host_request snapshot), for the host to check that what
# Prometheus answers is what the node reported.

FLEET_DIR=/tmp/fleet

# ship_metrics: the metrics now, to the host. acmactl writes them whole (exit 1: some
# figure unread, the rest written); the host answers "ok BYTES".
ship_metrics() {
	acmactl status --format=prometheus --output-file $FLEET_DIR/acma.prom
	[ $? -le 1 ] || return 1
	ship textfile acma.prom $FLEET_DIR/acma.prom
}

# ship REQUEST NAME FILE: FILE gzipped and base64-encoded on the request line.
ship() {
	host_request "$1" "$2" "$(gzip -9 < "$3" | base64 -w 0)" > $FLEET_DIR/answer ||
		{ echo "fleet: the host did not take $2: $(cat $FLEET_DIR/answer)" > /dev/console; return 1; }
}

# metrics_start SECONDS: ship the metrics every SECONDS in the background, until
# metrics_stop (which lets a request under way finish: the request line carries one
# request and its answer at a time).
metrics_start() {
	mkdir -p $FLEET_DIR
	rm -f $FLEET_DIR/stop
	(
		while [ ! -e $FLEET_DIR/stop ]; do
			ship_metrics
			sleep "$1"
		done
	) > /dev/null 2>&1 &
	metrics_pid=$!
}
metrics_stop() {
	touch $FLEET_DIR/stop
	wait "$metrics_pid" 2> /dev/null
}

# rank_states FILE: "RANK STATE TRANSITIONS" per rank of acmactl's JSON
rank_states() {
	sed -n 's/.*"rank": \([0-9]*\),.*"state": "\([a-z-]*\)".*"transitions": \([0-9]*\).*/\1 \2 \3/p' "$1"
}

# fleet_final: the last metrics, taken between two JSON statuses in which every rank
# has the same state and transitions (tried 5 times; the last try is sent anyway),
# sent as status-before.json, acma.prom and status-after.json.
fleet_final() {
	metrics_stop
	i=0
	while [ $i -lt 5 ]; do
		acmactl status --json > $FLEET_DIR/status-before.json
		acmactl status --format=prometheus --output-file $FLEET_DIR/acma.prom
		acmactl status --json > $FLEET_DIR/status-after.json
		[ "$(rank_states $FLEET_DIR/status-before.json)" = "$(rank_states $FLEET_DIR/status-after.json)" ] &&
			break
		i=$((i + 1))
	done
	ship snapshot status-before.json $FLEET_DIR/status-before.json &&
		ship textfile acma.prom $FLEET_DIR/acma.prom &&
		ship snapshot status-after.json $FLEET_DIR/status-after.json &&
		echo "fleet: last metrics sent"
}
