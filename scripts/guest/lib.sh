# SPDX-License-Identifier: GPL-2.0
# Helpers for guest scripts: the board's rank table, memory-block lookups and the
# guest's lines to the host.

RANKS=/etc/acma/board.ranks
MEMDIR=/sys/devices/system/memory

# The guest's lines to the host (scripts/lib/runner.sh): the report channel (the demo's
# summary, the tests' TAP) and the request line to the host's agent, with the line
# speed to set. Serial ports on q35; virt has one UART, the console, so there they are
# virtio consoles, which have no line speed.
case $(sed -n "s/^BOARD_QEMU_MACHINE='\(.*\)'$/\1/p" /etc/acma/board.env) in
virt) ACMA_REPORT_TTY=/dev/hvc0 ACMA_REQUEST_TTY=/dev/hvc1 ACMA_TTY_SPEED= ;;
*) ACMA_REPORT_TTY=/dev/ttyS1 ACMA_REQUEST_TTY=/dev/ttyS2 ACMA_TTY_SPEED=115200 ;;
esac

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

# host_request REQUEST...: ask the host's agent (scripts/host-agent.sh) over the
# request line; print its answer; fail unless it starts with "ok".
host_request() {
	[ -c $ACMA_REQUEST_TTY ] || return 1
	exec 8<> $ACMA_REQUEST_TTY
	# raw, each time: a virtio console forgets its settings when it is last closed
	stty raw -echo -echoe -echok -icrnl -onlcr $ACMA_TTY_SPEED <&8
	echo "$*" >&8
	IFS= read -r -t 60 answer <&8 || answer="err no answer from the host"
	exec 8>&-
	echo "$answer"
	case $answer in ok*) return 0 ;; *) return 1 ;; esac
}

# kexec_load MODE [-p] [ARG...]: load this kernel and initramfs again, for a kexec
# (no -p) or as the crash kernel (-p), to boot with acma.mode=MODE and the current
# command line otherwise, plus ARGs. The host gives both as a tar archive on a virtio
# disk with serial acma-kexec (scripts/test.sh); loaded with kexec_file_load(2)
# (kexec-load). Prints the new command line; 1 with the reason printed otherwise.
kexec_load() {
	local mode=$1 flag= disk= b cmdline err
	shift
	[ "${1:-}" = -p ] && { flag=-p; shift; }
	for b in /sys/block/vd*; do
		[ "$(cat $b/serial 2>/dev/null)" = acma-kexec ] && disk=/dev/${b##*/}
	done
	[ -n "$disk" ] || { echo "no disk with serial acma-kexec (the kernel and initramfs)"; return 1; }
	tar -xf $disk -C /tmp kernel initrd 2>/dev/null ||
		{ echo "cannot unpack the kernel and initramfs from $disk"; return 1; }
	cmdline="$(sed -e "s/acma\.mode=[a-z]*/acma.mode=$mode/" -e 's/crashkernel=[^ ]*//' \
		-e 's/kunit\.enable=1//' -e 's/  */ /g' /proc/cmdline) $*"
	err=$(kexec-load $flag /tmp/kernel /tmp/initrd "$cmdline" 2>&1)
	rm -f /tmp/kernel /tmp/initrd
	[ -z "$err" ] || { echo "$err"; return 1; }
	echo "$cmdline"
}

skip() { echo "SKIP: $*"; exit 4; }
fail() { echo "FAIL: $*"; exit 1; }
