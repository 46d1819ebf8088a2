#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# make fleet's check (scripts/fleet.sh runs it at the end of the day; it needs the
# fleet running, so make test does not): do Prometheus' answers (PromQL over its HTTP
# API) agree with what each node reports (acmactl status --json, as its guest sent it
# around its last metrics) and with what each BMC reports (ipmitool over lanplus with
# the monitor account, asked now)?
#
#   PROM_URL=http://127.0.0.1:P IPMI_EXPORTER_URL=http://127.0.0.1:Q FLEET_OUT=DIR \
#       check.sh BOARD...
#
# DIR/boards/BOARD/ holds board.env (the BMC's port and account) and snapshot/ (the
# JSON the guest took just before and just after its last metrics). Figures that
# only grow while a rank is off (time off, energy saved) must lie between the two
# JSONs; states and power must be equal. TAP on stdout, then "N passed, N failed";
# exit 1 on any failure. Nothing is skipped: a missing piece is a failure.
set -u

n=0 passed=0 failed=0
ok() { n=$((n + 1)); passed=$((passed + 1)); echo "ok $n $1"; }
not_ok() { n=$((n + 1)); failed=$((failed + 1)); echo "not ok $n $1 # $2"; }
# check NAME EXPECTED GOT [WHAT]: equal as strings
check() {
	if [ "$2" = "$3" ]; then ok "$1"; else not_ok "$1" "expected ${4:+$4 }'$2', Prometheus says '$3'"; fi
}
diag() { echo "# $*"; }

: "${PROM_URL:?}" "${IPMI_EXPORTER_URL:?}" "${FLEET_OUT:?}"
[ $# -gt 0 ] || { echo "usage: check.sh BOARD..." >&2; exit 2; }

# q QUERY: the instant query's series as "LABEL-VALUES VALUE" lines, sorted; the
# labels printed are those named in $labels (space-separated), "-" when missing
labels=board
q() {
	curl -sfG "$PROM_URL/api/v1/query" --data-urlencode "query=$1" |
		jq -r --arg l "$labels" '.data.result[] | . as $s |
			[($l | split(" ")[] | select(. != "")) as $k | $s.metric[$k] // "-"] + [$s.value[1]] | join(" ")' |
		sort
}
# v QUERY: the single value of a query ("none" when it has no series)
v() {
	local r
	r=$(labels='' q "$1" | awk 'NR == 1 { print $NF }')
	echo "${r:-none}"
}
# num A [DIVISOR]: A (/ DIVISOR) with 6 decimals, for comparing decimals: 1.35 and
# 1.350 alike
num() { [ "$1" != none ] || { echo none; return; }; awk -v a="$1" -v d="${2:-1}" 'BEGIN { printf "%.6f\n", a / d }'; }
# within NAME LOW HIGH GOT: LOW <= GOT <= HIGH
within() {
	if awk -v lo="$2" -v hi="$3" -v x="$4" 'BEGIN { exit !(x != "none" && x + 0 >= lo - 1e-9 && x + 0 <= hi + 1e-9) }'; then
		ok "$1"
	else
		not_ok "$1" "expected between $2 and $3, Prometheus says $4"
	fi
}
ipmi() {
	ipmitool -I lanplus -C 3 -H 127.0.0.1 -p "$lan_port" -U "$bmc_user" -P "$bmc_password" -L USER "$@"
}

# the fleet's sums of what the nodes and BMCs said
sum_off=0 sum_mw=0 sum_all_mw=0 sum_j_lo=0 sum_j_hi=0 sum_bmc_failed=0 sum_bmc_w=0

for b in "$@"; do
	d=$FLEET_OUT/boards/$b
	before=$d/snapshot/status-before.json after=$d/snapshot/status-after.json
	sel="board=\"$b\""
	diag "board $b"
	if ! { [ -s "$before" ] && [ -s "$after" ] && [ -s "$d/textfile/acma.prom" ] &&
		jq -e .ranks "$before" > /dev/null 2>&1 && jq -e .ranks "$after" > /dev/null 2>&1; }; then
		not_ok "$b/node/reported" "no final metrics or acmactl JSON from the guest in $d/{textfile,snapshot}"
		continue
	fi
	ok "$b/node/reported"
	lan_port=$(sed -n 's/^lan_port=//p' "$d/board.env")
	bmc_user=$(sed -n 's/^bmc_user=//p' "$d/board.env")
	bmc_password=$(sed -n 's/^bmc_password=//p' "$d/board.env")

	# Node: every rank's state, the ranks off, the DRAM power, all on
	want=$(jq -r '.ranks[] | select(.rank != null) | "\(.rank) \(.state)"' "$after" | sort)
	labels='rank acma_rank_state'
	got=$(q "acma_rank_state{$sel} == 1" | awk '{ print $1, $2 }')
	labels=board
	check "$b/node/rank-states" "$(echo $want)" "$(echo $got)" "(acmactl JSON, RANK STATE)"
	off=$(jq '[.ranks[] | select(.state == "off")] | length' "$after")
	check "$b/node/ranks-off" "$off" "$(v "sum(acma_rank_state{$sel,acma_rank_state=\"off\"})")"
	mw=$(jq .dram_power_mw "$after") all_mw=$(jq .all_on_mw "$after")
	check "$b/node/dram-power-watts" "$(num "$mw" 1000)" \
		"$(num "$(v "sum(acma_dram_power_watts{$sel})")")"
	check "$b/node/dram-all-on-watts" "$(num "$all_mw" 1000)" \
		"$(num "$(v "sum(acma_dram_all_on_power_watts{$sel})")")"
	# equal before and after, or the guest could not take a still moment
	[ "$(jq -c '[.ranks[].state]' "$before")" = "$(jq -c '[.ranks[].state]' "$after")" ] ||
		diag "$b: a rank changed state between the two JSONs"

	# Node: what grows while ranks are off lies between the two JSONs (saved_j is in
	# whole joules: +-1 J a rank)
	for r in $(jq -r '.ranks[] | select(.rank != null) | .rank' "$after"); do
		lo=$(jq ".ranks[] | select(.rank == $r) | .time_off_ms / 1000" "$before")
		hi=$(jq ".ranks[] | select(.rank == $r) | .time_off_ms / 1000" "$after")
		got=$(v "acma_rank_off_seconds_total{$sel,rank=\"$r\"}")
		awk -v lo="$lo" -v hi="$hi" -v x="$got" 'BEGIN { exit !(x != "none" && x + 0 >= lo - 1e-9 && x + 0 <= hi + 1e-9) }' ||
			bad_rank="${bad_rank:-}rank $r off ${got} s, JSON $lo..$hi s; "
		lo=$(jq ".ranks[] | select(.rank == $r) | .saved_j - 1" "$before")
		hi=$(jq ".ranks[] | select(.rank == $r) | .saved_j + 1" "$after")
		got=$(v "acma_rank_energy_saved_joules_total{$sel,rank=\"$r\"}")
		awk -v lo="$lo" -v hi="$hi" -v x="$got" 'BEGIN { exit !(x != "none" && x + 0 >= lo && x + 0 <= hi) }' ||
			bad_rank="${bad_rank:-}rank $r saved ${got} J, JSON $lo..$hi J; "
	done
	if [ -z "${bad_rank:-}" ]; then ok "$b/node/ranks-time-off-and-energy"; else
		not_ok "$b/node/ranks-time-off-and-energy" "$bad_rank"; fi
	bad_rank=
	nr=$(jq '[.ranks[] | select(.rank != null)] | length' "$after")
	j_lo=$(jq ".energy_saved_j - $nr" "$before") j_hi=$(jq ".energy_saved_j + $nr" "$after")
	within "$b/node/energy-saved-joules" "$j_lo" "$j_hi" "$(v "sum(acma_dram_energy_saved_joules_total{$sel})")"
	m1=$(jq .mem_bytes "$before") m2=$(jq .mem_bytes "$after")
	within "$b/node/memory-bytes" "$((m1 < m2 ? m1 : m2))" "$((m1 > m2 ? m1 : m2))" \
		"$(v "acma_memory_bytes{$sel}")"

	# BMC: the exporter reached it with every collector
	labels=collector
	up=$(q "ipmi_up{$sel}" | tr '\n' ' ')
	labels=board
	check "$b/bmc/exporter-up" "bmc 1 dcmi 1 ipmi 1 sel 1 " "$up" "(ipmi_up by collector)"

	# BMC: each rank's sensor, ipmitool against the IPMI exporter (state 2, FreeIPMI's
	# Critical, is a failed rank: Configuration Error; a rank off on purpose shows Spare,
	# state 0, Nominal: firmware-glue/PROTOCOL.md) and against the node (Spare = not on)
	sdr=$(ipmi sdr type Memory 2>&1 | grep '^Rank') ||
		{ not_ok "$b/bmc/rank-sensors" "ipmitool sdr type Memory over lanplus failed"; continue; }
	crit=$(echo "$sdr" | awk -F' *[|] *' '{ print $1 "=" ($5 ~ /Configuration Error|Memory Device Disabled/ ? "critical" : "nominal") }' | sort)
	labels=name
	got=$(q "ipmi_sensor_state{$sel,type=\"Memory\"}" |
		awk '{ v = $NF; $NF = ""; sub(/ $/, ""); print $0 "=" (v == 2 ? "critical" : v == 0 ? "nominal" : "state-" v) }' | sort)
	labels=board
	check "$b/bmc/rank-sensors" "$(echo $crit)" "$(echo $got)" "(ipmitool sdr type Memory)"
	want=$(echo "$sdr" | awk -F' *[|] *' '{ print $1 "=" ($5 ~ /Spare/ ? "disabled" : "enabled") }' | sort)
	node=$(jq -r '.ranks[] | select(.rank != null) | "Rank\(.rank) \(.dimm)=\(if .state == "on" then "enabled" else "disabled" end)"' "$after" | sort)
	if [ "$(echo $node)" = "$(echo $want)" ]; then ok "$b/bmc/rank-sensors-match-node"; else
		not_ok "$b/bmc/rank-sensors-match-node" "the node says $(echo $node), the BMC $(echo $want)"; fi
	failed=$(echo "$crit" | grep -c '=critical$')

	# BMC: DCMI power reading, ipmitool against the exporter and the node (whole watts)
	w=$(ipmi dcmi power reading 2>&1 | sed -n 's/.*Instantaneous power reading: *\([0-9]*\) Watts.*/\1/p')
	if [ -z "$w" ]; then
		not_ok "$b/bmc/dcmi-power" "ipmitool dcmi power reading over lanplus gave no reading"
	else
		check "$b/bmc/dcmi-power" "$w" "$(v "ipmi_dcmi_power_consumption_watts{$sel}")" "(ipmitool dcmi power reading, W)"
		check "$b/bmc/dcmi-power-matches-node" "$(awk -v m="$mw" 'BEGIN { printf "%.0f", m / 1000 }')" "$w" \
			"(the node's DRAM power rounded to whole watts; the BMC says)"
	fi

	sum_off=$((sum_off + off)) sum_mw=$((sum_mw + mw)) sum_all_mw=$((sum_all_mw + all_mw))
	sum_j_lo=$((sum_j_lo + j_lo)) sum_j_hi=$((sum_j_hi + j_hi))
	sum_bmc_failed=$((sum_bmc_failed + failed)) sum_bmc_w=$((sum_bmc_w + ${w:-0}))
done

# The fleet's totals, as make fleet prints them
diag "fleet"
check fleet/ranks-off "$sum_off" "$(v 'sum(acma_rank_state{acma_rank_state="off"})')" "(the nodes' JSON)"
check fleet/dram-power-watts "$(num "$sum_mw" 1000)" "$(num "$(v 'sum(acma_dram_power_watts)')")" "(the nodes' JSON)"
check fleet/dram-all-on-watts "$(num "$sum_all_mw" 1000)" "$(num "$(v 'sum(acma_dram_all_on_power_watts)')")" "(the nodes' JSON)"
within fleet/energy-saved-joules "$sum_j_lo" "$sum_j_hi" "$(v 'sum(acma_dram_energy_saved_joules_total)')"
check fleet/bmc-ranks-failed "$sum_bmc_failed" "$(v 'count(ipmi_sensor_state{type="Memory"} == 2) or vector(0)')" "(ipmitool)"
check fleet/bmc-dcmi-power "$sum_bmc_w" "$(v 'sum(ipmi_dcmi_power_consumption_watts)')" "(ipmitool)"

echo "1..$n"
echo "$passed passed, $failed failed"
[ $failed = 0 ]
