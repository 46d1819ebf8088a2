#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The fleet's timeline (make fleet) as a PNG with gnuplot, from Prometheus' query_range
# answers that scripts/fleet.sh wrote as "SERIES BOARD UNIX-TIME VALUE" lines (BOARD
# "fleet" for a fleet-wide sum):
#   mem     memory each board has, GiB           sum by (board) (acma_memory_bytes)
#   power   DRAM power per board and the fleet   acma_dram_power_watts
#   allon   the fleet's DRAM power, all ranks on acma_dram_all_on_power_watts
#   dcmi    the BMCs' DRAM power reading (DCMI)  ipmi_dcmi_power_consumption_watts
#   off     ranks off, as the nodes report them  acma_rank_state{acma_rank_state="off"}
#   bmcfail ranks the BMCs report failed         ipmi_sensor_state{type="Memory"} == 2
# Three panels on one time axis (seconds since the boards booted, T0): memory, DRAM
# power, ranks off; a dotted line at each phase's end from PHASES ("UNIX-TIME PHASE
# BOARD" lines).
#
#   fleet-plot.sh DAT PHASES PNG T0 TITLE
#
# Exit 0, or 1 with one line on stderr.
set -eu
die() { echo "fleet-plot.sh: $*" >&2; exit 1; }
[ $# = 5 ] || { echo "usage: fleet-plot.sh DAT PHASES PNG T0 TITLE" >&2; exit 2; }
dat=$1 phases=$2 png=$3 t0=$4 title=$5
[ -s "$dat" ] || die "$dat: no samples"
command -v gnuplot > /dev/null || die "gnuplot not found: install gnuplot-nox (make deps)"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# one file per series and board: "SECONDS VALUE"
awk -v t0="$t0" -v dir="$tmp" '{ f = dir "/" $1 "." $2 ".dat"; print $3 - t0, $4 > f }' "$dat"
boards=$(awk '$2 != "fleet" { print $2 }' "$dat" | sort -u)
[ -n "$boards" ] || die "$dat: no board's series"
t1=$(awk -v t0="$t0" '{ if ($3 - t0 > m) m = $3 - t0 } END { print m + 0 }' "$dat")
colors=(blue dark-orange dark-green purple brown dark-cyan)

# series SERIES STYLE TITLE: a plot item if the series has samples
series() {
	[ -s "$tmp/$1.dat" ] && echo "'$1.dat' using 1:2 $2 title '$3'"
	return 0
}
# plot_line ITEM...: the plot command of the non-empty items (a panel without samples
# gets an empty plot)
plot_line() {
	local s= x
	for x in "$@"; do [ -n "$x" ] && s="$s${s:+, }$x"; done
	echo "plot ${s:-NaN notitle}"
}

{
	cat <<EOF
set terminal $(gnuplot -e 'print GPVAL_TERMINALS' 2>&1 | grep -qw pngcairo &&
	echo 'pngcairo size 1200,900 noenhanced font "sans,10"' ||
	echo 'png truecolor size 1200,900 noenhanced')
set output 'timeline.png'
set multiplot layout 3,1 title '${title//\'/\'\'}'
set lmargin 12
set rmargin 4
set xrange [0:$t1]
set grid
set offsets 0, 0, graph 0.2, 0
set key top center horizontal opaque
set format x ''
EOF
	# the phases' ends, on every panel
	if [ -s "$phases" ]; then
		awk -v t0="$t0" '{ printf "set arrow from %d, graph 0 to %d, graph 1 nohead dt 3 lc rgb \"gray50\"\n", $1 - t0, $1 - t0
			printf "set label \"%s: end of %s\" at %d, graph 0.03 rotate by 90 left font \",8\" tc rgb \"gray40\"\n", $3, $2, $1 - t0 + 1 }' "$phases"
	fi
	items=() i=0
	for b in $boards; do
		items+=("$(series "mem.$b" "with steps lw 2 lc rgb '${colors[i % 6]}'" "$b")")
		i=$((i + 1))
	done
	echo "set ylabel 'memory (GiB)'"
	echo "set yrange [0:*]"
	plot_line "${items[@]}"

	items=() i=0
	for b in $boards; do
		items+=("$(series "power.$b" "with steps lw 1.5 lc rgb '${colors[i % 6]}'" "$b")")
		i=$((i + 1))
	done
	items+=("$(series power.fleet "with steps lw 2.5 lc rgb 'red'" 'fleet')")
	items+=("$(series allon.fleet "with steps dt 2 lw 1.5 lc rgb 'gray30'" 'fleet, all ranks on')")
	items+=("$(series dcmi.fleet "with points pt 7 ps 0.5 lc rgb 'black'" 'fleet, BMCs (DCMI)')")
	echo "set ylabel 'DRAM power (W)'"
	plot_line "${items[@]}"

	items=()
	items+=("$(series off.fleet "with steps lw 2 lc rgb 'purple'" 'ranks off (nodes)')")
	items+=("$(series bmcfail.fleet "with points pt 6 ps 0.6 lc rgb 'black'" 'ranks failed (BMCs)')")
	echo "set xlabel 'time since the boards booted (s)'"
	echo "set format x '%g'"
	echo "set ylabel 'ranks off'"
	plot_line "${items[@]}"
	echo 'unset multiplot'
} > "$tmp/plot.gp"

(cd "$tmp" && gnuplot plot.gp) > "$tmp/gnuplot.log" 2>&1 ||
	{ cat "$tmp/gnuplot.log" >&2; die "gnuplot failed on $dat"; }
[ -s "$tmp/timeline.png" ] || die "gnuplot wrote no PNG"
mv "$tmp/timeline.png" "$png" || die "cannot write $png"
