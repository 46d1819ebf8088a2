#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The host agent's textfile and snapshot requests (scripts/host-agent.sh), the way make
# fleet's guests send their metrics: acmactl's Prometheus text, gzipped and
# base64-encoded by busybox as the guest does (scripts/guest/fleet.sh), on one request
# line ending in CR LF as a serial line delivers it. The file lands whole in the
# board's textfile directory and node_exporter's textfile collector serves it; a bad
# name, bad data or no directory is answered "err" and writes nothing, leaving the file
# there as it was; no temporary file is left behind.
top=$(cd "$(dirname "$0")/../.." && pwd)
. "$top/tests/tools/lib.sh"
golden_setup acmactl

ne=$(command -v prometheus-node-exporter || command -v node_exporter)
if [ -z "$ne" ] || ! command -v curl > /dev/null || ! [ -x /bin/busybox ] ||
   ! [ -x "$top/build/host/boardgen" ]; then
	echo "SKIP: prometheus-node-exporter, curl, busybox-static or build/host/boardgen missing; run make deps and make"
	exit 4
fi
mkdir "$tmp/textfile" "$tmp/snapshot"
"$tool" --sysroot "$top/tests/tools/acmactl/scaling-down/root" status --format=prometheus \
	--output-file "$tmp/acma.prom"
"$tool" --sysroot "$top/tests/tools/acmactl/scaling-down/root" status --json > "$tmp/status.json"
# pack FILE: what the guest puts on the line
pack() { /bin/busybox gzip -9 < "$1" | /bin/busybox base64 -w 0; }

# agent LINE...: the agent's answers to these request lines
agent() {
	printf '%s\r\n' "$@" | ACMA_BOARD_FILE=$top/boards/qemu-x86_64/board.hw \
		ACMA_TEXTFILE_DIR=${textfile_dir-$tmp/textfile} ACMA_SNAPSHOT_DIR=$tmp/snapshot \
		"$top/scripts/host-agent.sh" 2> "$tmp/agent.err"
}
# left: temporary files left in the directories
left() { find "$tmp/textfile" "$tmp/snapshot" -name '.*' -type f | wc -l; }

a=$(agent "textfile acma.prom $(pack "$tmp/acma.prom")" "snapshot status-after.json $(pack "$tmp/status.json")")
if [ "$a" = "ok $(stat -c %s "$tmp/acma.prom")
ok $(stat -c %s "$tmp/status.json")" ] && cmp -s "$tmp/acma.prom" "$tmp/textfile/acma.prom" &&
   cmp -s "$tmp/status.json" "$tmp/snapshot/status-after.json" &&
   [ "$(stat -c %a "$tmp/textfile/acma.prom")" = 644 ] && [ "$(left)" = 0 ]; then
	ok "textfile and snapshot: written byte for byte, mode 644, no temporary file left"
else
	fail "textfile and snapshot" "answers '$a', $(left) temporary files; $(head -c 300 "$tmp/agent.err")"
fi

# node_exporter serves what the agent wrote
port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
"$ne" --web.listen-address="127.0.0.1:$port" --collector.disable-defaults --collector.textfile \
	--collector.textfile.directory="$tmp/textfile" > "$tmp/ne.log" 2>&1 &
ne_pid=$!
trap 'kill $ne_pid 2> /dev/null; wait $ne_pid 2> /dev/null; rm -rf "$tmp"' EXIT
for _ in $(seq 50); do
	curl -sf "http://127.0.0.1:$port/metrics" > "$tmp/scrape" && break
	sleep 0.1
done
if grep -qx 'node_textfile_scrape_error 0' "$tmp/scrape" &&
   [ "$(grep -c '^acma_' "$tmp/scrape")" = "$(grep -vc '^#' "$tmp/acma.prom")" ]; then
	ok "node_exporter serves the file the agent wrote: all $(grep -c '^acma_' "$tmp/scrape") samples, scrape error 0"
else
	fail "node_exporter" "$(grep '^node_textfile_scrape_error' "$tmp/scrape"), $(grep -c '^acma_' "$tmp/scrape") samples"
fi

# refused: names that are not NAME.prom, or that could leave the directory
data=$(pack "$tmp/acma.prom")
a=$(agent "textfile ../escape.prom $data" "textfile acma.txt $data" "textfile .acma.prom $data" \
	"snapshot ../escape.json $data" "snapshot .hidden $data" "textfile acma.prom" "snapshot")
if [ "$(echo "$a" | grep -c '^err ')" = 7 ] && ! [ -e "$tmp/escape.prom" ] && ! [ -e "$tmp/escape.json" ] &&
   [ "$(find "$tmp/textfile" "$tmp/snapshot" -type f | wc -l)" = 2 ] && [ "$(left)" = 0 ]; then
	ok "bad names refused: $(echo "$a" | sed -n 1p)"
else
	fail "bad names" "answers: $(echo "$a" | tr '\n' '|'); files: $(find "$tmp" -type f | tr '\n' ' ')"
fi

# refused: data that is not gzip in base64; the file there stays whole
a=$(agent "textfile acma.prom bm90IGd6aXA=" "textfile acma.prom @@@")
if [ "$(echo "$a" | grep -c '^err ')" = 2 ] && cmp -s "$tmp/acma.prom" "$tmp/textfile/acma.prom" &&
   [ "$(left)" = 0 ]; then
	ok "bad data refused, the file left as it was: $(echo "$a" | sed -n 1p)"
else
	fail "bad data" "answers: $(echo "$a" | tr '\n' '|'), $(left) temporary files"
fi

# refused: no textfile directory (a run that is not make fleet)
a=$(textfile_dir='' agent "textfile acma.prom $data")
case $a in
"err "*) ok "no textfile directory: $a" ;;
*) fail "no textfile directory" "answer '$a'" ;;
esac
exit $failed
