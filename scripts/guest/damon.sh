# SPDX-License-Identifier: GPL-2.0
# Guest helpers to drive DAMON through its sysfs interface, the way an
# administrator would: one kdamond, one paddr context, one target region and
# one scheme.

ADMIN=/sys/kernel/mm/damon/admin
KD=$ADMIN/kdamonds/0
CTX=$KD/contexts/0
SCHEME=$CTX/schemes/0
CONTIG=/sys/kernel/mm/damon/contig

# damon_setup ACTION START END [ALLOC_ORDER]: stage (not start) a kdamond
# applying ACTION to every region of [START, END), whatever its access pattern.
damon_setup() {
	echo 1 > $ADMIN/kdamonds/nr_kdamonds
	echo 1 > $KD/contexts/nr_contexts
	echo paddr > $CTX/operations
	echo 5000 > $CTX/monitoring_attrs/intervals/sample_us
	echo 100000 > $CTX/monitoring_attrs/intervals/aggr_us
	echo 1 > $CTX/targets/nr_targets
	echo 1 > $CTX/targets/0/regions/nr_regions
	echo $(($2)) > $CTX/targets/0/regions/0/start
	echo $(($3)) > $CTX/targets/0/regions/0/end
	echo 1 > $CTX/schemes/nr_schemes
	echo "$1" > $SCHEME/action
	[ -n "${4:-}" ] && echo "$4" > $SCHEME/alloc_order
	echo 0 > $SCHEME/access_pattern/sz/min
	echo 18446744073709551615 > $SCHEME/access_pattern/sz/max
	echo 0 > $SCHEME/access_pattern/nr_accesses/min
	echo 4294967295 > $SCHEME/access_pattern/nr_accesses/max
	echo 0 > $SCHEME/access_pattern/age/min
	echo 4294967295 > $SCHEME/access_pattern/age/max
	return 0
}

damon_on() { echo on > $KD/state; }
damon_off() { echo off > $KD/state; }
damon_commit() { echo commit > $KD/state; }

# damon_stat NAME: a stat of the running scheme (sz_applied, nr_tried, ...).
damon_stat() {
	echo update_schemes_stats > $KD/state
	cat $SCHEME/stats/$1
}

contig() { cat $CONTIG/$1; }

# meminfo FIELD: a /proc/meminfo value in kB.
meminfo() { sed -n "s/^$1: *\([0-9]*\) kB/\1/p" /proc/meminfo; }

# wait_owned BYTES SECONDS: wait until owned_bytes reaches BYTES or stops
# changing for 3 s; print the final value.
wait_owned() {
	last=-1 still=0 i=0
	while [ $i -lt $(($2 * 2)) ]; do
		now=$(contig owned_bytes)
		[ "$now" = "$1" ] && break
		if [ "$now" = "$last" ]; then
			still=$((still + 1))
			[ $still -ge 6 ] && break
		else
			still=0
		fi
		last=$now
		sleep 0.5
		i=$((i + 1))
	done
	contig owned_bytes
}

# DAMON_ACMA's module parameters.
ACMA=/sys/module/damon_acma/parameters
acma() { cat $ACMA/$1; }

# acma_wait PARAM OP VALUE SECONDS: wait until "$(acma PARAM)" OP VALUE holds
# (OP is a test(1) operator such as -le); 1 on timeout. Records the lowest and
# highest mem_bytes seen meanwhile in ACMA_MEM_LO / ACMA_MEM_HI.
acma_wait() {
	i=0
	while [ $i -lt $(($4 * 5)) ]; do
		m=$(acma mem_bytes)
		[ "$m" -lt "${ACMA_MEM_LO:-$m}" ] && ACMA_MEM_LO=$m
		[ "$m" -gt "${ACMA_MEM_HI:-0}" ] && ACMA_MEM_HI=$m
		[ "$(acma $1)" "$2" "$3" ] && return 0
		sleep 0.2
		i=$((i + 1))
	done
	return 1
}

# acma_off: disable DAMON_ACMA and check that everything came back.
acma_off() {
	echo N > $ACMA/enabled || fail "disabling DAMON_ACMA failed"
	[ "$(acma removed_blocks)" = 0 ] || fail "$(acma removed_blocks) blocks still removed after disabling"
	[ "$(acma owned_bytes)" = 0 ] || fail "$(acma owned_bytes) bytes still taken after disabling"
}

# acma_diag: what DAMON_ACMA has and what holds the rank blocks still online, for
# a failing test's output: per block, pages in use by kind (from /proc/kpageflags:
# on an LRU list, anonymous, other), free and owned pages are not counted.
acma_diag() {
	echo "diag: mem_bytes $(acma mem_bytes), owned $(acma owned_bytes), removed_blocks $(acma removed_blocks), min $(acma min_mem), max $(acma max_mem)"
	echo "diag: contig" $(cd $CONTIG && for f in skipped_* owner_refused_*; do echo "$f=$(cat $f)"; done)
	echo "diag: deferred blocks: $(tr '\n' ';' < $ACMA/deferred_blocks 2>/dev/null) pressure $(acma measured_pressure_us) us, MemAvailable $(meminfo MemAvailable) kB"
	[ -r /proc/kpageflags ] || return 0
	local npages=$(($(block_size) / 4096))
	while read -r _ _ base size; do blocks_of $((base)) $size; done < $RANKS |
	while read -r b; do
		[ "$(block_state $b)" = online ] || continue
		dd if=/proc/kpageflags bs=8 skip=$((b * npages)) count=$npages 2>/dev/null |
			od -An -v -tx8 | awk -v b=$b '
			function d(c) { return index("0123456789abcdef", c) - 1 }
			{ v = $1
			  buddy = int(d(substr(v, 14, 1)) / 4) % 2	# bit 10
			  off = int(d(substr(v, 11, 1)) / 8) % 2	# bit 23
			  tail = d(substr(v, 12, 1)) % 2		# bit 16
			  if (buddy || off || $1 == "0000000000000000") next
			  lru = int(d(substr(v, 15, 1)) / 2) % 2	# bit 5
			  anon = d(substr(v, 13, 1)) % 2		# bit 12
			  if (lru) { l++; if (anon) a++ } else if (!tail) o++ }
			END { printf "diag: memory%d: %d pages on LRU lists (%d anonymous), %d other in use\n", b, l, a, o }'
	done
}
