#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# On a private BMC: a flood of unauthenticated RMCP+ Open Session requests (100, on the
# loopback, from one UDP socket, never followed by RAKP) must not lock the administrator
# out. ipmi_sim has 63 session slots and keeps a half-open session 30 s; the
# administrator must log in right after the flood, and the flood's half-open sessions
# must be gone within a few seconds.
. "$(dirname "$0")/lib/bmc.sh"
own_bmc_setup
own_bmc_start

flood() {
	python3 - "$lan_port" "$1" <<-'PY'
	import socket, struct, sys
	port, count = int(sys.argv[1]), int(sys.argv[2])
	s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
	for i in range(count):
	    payload = bytes([i & 0xff, 4, 0, 0]) + struct.pack('<I', 0x1000 + i) + \
	        bytes([0, 0, 0, 8, 1, 0, 0, 0, 1, 0, 0, 8, 1, 0, 0, 0, 2, 0, 0, 8, 1, 0, 0, 0])
	    pkt = bytes([6, 0, 0xff, 7, 6, 0x10]) + struct.pack('<IIH', 0, 0, len(payload)) + payload
	    s.sendto(pkt, ('127.0.0.1', port))
	s.settimeout(0.5)
	answered = 0
	try:
	    while True:
	        d = s.recv(512)
	        if len(d) > 17 and d[17] == 0:
	            answered += 1
	except socket.timeout:
	    pass
	print(answered)
	PY
}
opened=$(flood 100)
echo "flood: 100 Open Session requests, $opened sessions opened"
[ "$opened" -ge 63 ] || fail "the flood opened only $opened sessions: it did not fill the table"
t0=$(date +%s%N)
out=$(bmc_admin -R 1 -N 2 mc info 2>&1) || { echo "$out" | head -n 3; fail "the administrator is locked out after the flood"; }
echo "ok: the administrator logs in right after the flood ($((($(date +%s%N) - t0) / 1000000)) ms)"
sleep 4
active=$(bmc_admin session info active 2>/dev/null | sed -n 's/^active sessions *: *//p' | head -n 1)
echo "active sessions 4 s after the flood: $active"
[ -n "$active" ] && [ "$active" -le 2 ] || fail "half-open sessions of the flood are still there ($active active)"
