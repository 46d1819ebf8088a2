#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# node_exporter's textfile collector, the reader acmactl's systemd service writes for
# (tools/systemd): it reads acmactl status --format=prometheus --output-file (scrape
# error 0, every sample served as acmactl wrote it) and refuses the OpenMetrics
# format (scrape error 1, "unknown metric type"), which is why the service writes the
# former. node_exporter runs on a free port of 127.0.0.1 with only that collector, and
# is stopped at the end.
top=$(cd "$(dirname "$0")/../.." && pwd)
. "$top/tests/tools/lib.sh"
golden_setup acmactl
py=/usr/bin/python3

# samples FILE: the sample lines, sorted.
samples() {
	grep -v '^#' "$1" | sort
}

# value FILE SAMPLE: the value of the sample line that starts with SAMPLE and a blank.
value() {
	awk -v s="$2" 'index($0, s " ") == 1 { print $2 }' "$1"
}

ne=$(command -v prometheus-node-exporter || command -v node_exporter)
if [ -z "$ne" ] || ! command -v curl > /dev/null; then
	echo "SKIP: prometheus-node-exporter or curl is not installed; run make deps"
	exit 4
fi
mkdir "$tmp/textfile"
out=$tmp/textfile/acma.prom
port=$("$py" -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
"$ne" --web.listen-address="127.0.0.1:$port" --collector.disable-defaults --collector.textfile \
	--collector.textfile.directory="$tmp/textfile" > "$tmp/ne.log" 2>&1 &
ne_pid=$!
trap 'kill $ne_pid 2> /dev/null; wait $ne_pid 2> /dev/null; rm -rf "$tmp"' EXIT
scrape() {
	for _ in $(seq 50); do
		curl -sf "http://127.0.0.1:$port/metrics" > "$tmp/scrape" && return 0
		sleep 0.1
	done
	return 1
}
"$tool" --sysroot "$fixtures/scaling-down/root" status --format=prometheus --output-file "$out"
if ! scrape; then
	fail "node_exporter" "no answer on port $port: $(tail -n 3 "$tmp/ne.log")"
elif [ "$(value "$tmp/scrape" node_textfile_scrape_error)" = 0 ] &&
     [ "$(grep -c '^acma_' "$tmp/scrape")" = "$(samples "$out" | wc -l)" ] &&
     grep -qx 'acma_rank_state{acma_rank_state="off",rank="6"} 1' "$tmp/scrape"; then
	ok "node_exporter's textfile collector reads the Prometheus text: scrape error 0, all $(grep -c '^acma_' "$tmp/scrape") samples served"
else
	fail "node_exporter, Prometheus text" "scrape error $(value "$tmp/scrape" node_textfile_scrape_error), $(grep -c '^acma_' "$tmp/scrape") acma_ samples"
fi
"$tool" --sysroot "$fixtures/scaling-down/root" status --format=openmetrics --output-file "$out"
if scrape && [ "$(value "$tmp/scrape" node_textfile_scrape_error)" = 1 ]; then
	ok "node_exporter's textfile collector refuses OpenMetrics: $(grep -o 'unknown metric type [^ ]*' "$tmp/ne.log" | tail -n 1)"
else
	fail "node_exporter, OpenMetrics" "scrape error $(value "$tmp/scrape" node_textfile_scrape_error): the units could write OpenMetrics"
fi
exit $failed
