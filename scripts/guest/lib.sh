# SPDX-License-Identifier: GPL-2.0
# Helpers for guest scripts: the board's rank table and memory-block lookups.

RANKS=/etc/acma/board.ranks
MEMDIR=/sys/devices/system/memory

block_size() { echo $((0x$(cat $MEMDIR/block_size_bytes))); }

# Memory block numbers covering [base, base + size).
blocks_of() {
	bs=$(block_size)
	first=$(($1 / bs))
	last=$((($1 + $2 - 1) / bs))
	seq $first $last
}

# The zone an online block is in, from valid_zones (its first word when online).
block_zone() { cut -d' ' -f1 < $MEMDIR/memory$1/valid_zones 2>/dev/null; }
block_state() { cat $MEMDIR/memory$1/state 2>/dev/null || echo absent; }

# host_request REQUEST...: ask the host's agent (scripts/host-agent.sh) over
# /dev/ttyS2; print its answer; fail unless it starts with "ok".
host_request() {
	[ -c /dev/ttyS2 ] || return 1
	exec 8<> /dev/ttyS2
	echo "$*" >&8
	IFS= read -r -t 60 answer <&8 || answer="err no answer from the host"
	exec 8>&-
	echo "$answer"
	case $answer in ok*) return 0 ;; *) return 1 ;; esac
}

skip() { echo "SKIP: $*"; exit 4; }
fail() { echo "FAIL: $*"; exit 1; }
