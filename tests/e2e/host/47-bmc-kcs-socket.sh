#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The BMC's system interface (KCS, which QEMU connects the guest to) has no sessions:
# whoever talks to it may send every command. On a private BMC it must be reachable
# only by the runner's user: ipmi_sim listens on no TCP port at all, the interface is a
# UNIX socket in a private (0700) run folder, another user cannot connect to it, and it
# answers Get Device ID to the runner. (The guest's side: guest test 20.)
. "$(dirname "$0")/lib/bmc.sh"
own_bmc_setup
own_bmc_start

# the TCP ports ipmi_sim listens on, from its sockets' inodes in /proc/net/tcp{,6}
inodes=$(ls -l /proc/"$bmc_pid"/fd 2>/dev/null | sed -n 's/.*socket:\[\([0-9]*\)\]$/\1/p' | sort -u)
ports=$(for h in $(awk -v ino=" $(echo $inodes) " 'NR > 1 && $4 == "0A" &&
	index(ino, " " $10 " ") { n = split($2, a, ":"); print a[n] }' /proc/net/tcp /proc/net/tcp6)
	do echo $((0x$h)); done)
ports=$(echo $ports)
if [ -n "$ports" ]; then
	for p in $ports; do
		ans=$(printf '\001\030\001\346\240' |
			setpriv --reuid=65534 --regid=65534 --clear-groups \
			timeout 5 socat -t 2 - TCP:127.0.0.1:"$p" | od -An -tx1 | tr -d '\n')
		echo "user nobody on TCP 127.0.0.1:$p, Get Device ID ->$ans"
	done
	fail "ipmi_sim listens on TCP port(s) $ports: any local process can take the system interface"
fi
echo "ok: ipmi_sim listens on no TCP port"

sock=${kcs_sock:-}
[ -n "$sock" ] && [ -S "$sock" ] || fail "no KCS UNIX socket (kcs_sock='$sock')"
dir=$(dirname "$sock")
expect "run folder $dir: type, mode, owner" "$(stat -c '%F %a %u' "$dir")" "directory 700 $(id -u)"
expect "KCS socket: type, owner" "$(stat -c '%F %u' "$sock")" "socket $(id -u)"
[ $((0$(stat -c %a "$sock") & 077)) = 0 ] || fail "the socket is open to others: $(stat -c %a "$sock")"
if setpriv --reuid=65534 --regid=65534 --clear-groups socat -u /dev/null UNIX-CONNECT:"$sock" \
	2> "$own_dir/nobody.err"; then
	fail "user nobody connected to $sock"
fi
echo "ok: user nobody cannot connect: $(head -n 1 "$own_dir/nobody.err" | sed 's/.*E //')"

# Get Device ID in QEMU's VM codec: seq 01, NetFn App << 2, cmd 01, checksum, 0xa0
ans=$(printf '\001\030\001\346\240' | timeout 5 socat -t 2 - UNIX-CONNECT:"$sock" |
	od -An -tx1 | tr -d '\n')
echo "Get Device ID over $sock ->$ans"
case $ans in *" 01 1c 01 00 20 01"*" 4a ac "*) ;; *) fail "no Get Device ID answer from acma's BMC" ;; esac
