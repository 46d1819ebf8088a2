#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Draw a trace of acma-trace (tools/acma-trace) as a PNG with gnuplot: the memory
# (mem_bytes, min_mem and max_mem, removed memory shaded) above the DRAM power
# (dram_mw against all_on_mw, ranks_on on the right axis), on one time axis. A trace
# without rank values (a VM guest) gets a note in place of the power.
#
#   plot.sh CSV PNG [TITLE]     TITLE defaults to the CSV's name
#
# Exit 0, or 1 with one line on stderr: no CSV, a CSV without acma-trace's columns or
# without rows, no gnuplot, gnuplot failing; 2 for a usage error.
#
# rows, t0, t1, ranks and has_COLUMN are set by eval:
# shellcheck disable=SC2154
set -eu

die() {
	echo "plot.sh: $*" >&2
	exit 1
}

[ $# = 2 ] || [ $# = 3 ] || { echo "usage: plot.sh CSV PNG [TITLE]" >&2; exit 2; }
csv=$1 png=$2 title=${3:-$1}

[ -f "$csv" ] || die "$csv: no such file (acma-trace -o FILE records a trace)"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# A trace read from a serial port ends its lines with CR LF.
tr -d '\r' < "$csv" > "$tmp/trace.csv" || die "$csv: cannot read"

# The columns drawn; each one's number and whether any row has a value in it.
cols="t_s mem_bytes min_mem max_mem removed_bytes ranks_on ranks_total dram_mw all_on_mw"
facts=$(awk -F, -v want="$cols" '
	NR == 1 {
		for (i = 1; i <= NF; i++) col[$i] = i
		n = split(want, w, " ")
		for (i = 1; i <= n; i++)
			if (!(w[i] in col)) { print "missing " w[i]; bad = 1; exit }
		next
	}
	NF > 1 {
		rows++
		for (i = 1; i <= NF; i++) if ($i != "") seen[i] = 1
		if (rows == 1) t0 = $col["t_s"]
		t1 = $col["t_s"]
		if ($col["ranks_total"] + 0 > ranks) ranks = $col["ranks_total"] + 0
	}
	END {
		if (bad || !NR) exit
		for (i = 1; i <= n; i++) print "has_" w[i] "=" (seen[col[w[i]]] ? 1 : 0)
		print "rows=" rows + 0; print "t0=" t0 + 0; print "t1=" t1 + 0
		print "ranks=" ranks + 0
	}' "$tmp/trace.csv")
case $facts in
"") die "$csv: empty, not even a header" ;;
missing*) die "$csv: not a trace of acma-trace: no column ${facts#missing }" ;;
esac
eval "$facts"
[ "$rows" -gt 0 ] || die "$csv: no rows, only a header"
command -v gnuplot > /dev/null || die "gnuplot not found: install gnuplot-nox (make deps)"

# A single row still gets a time axis.
[ "$t1" != "$t0" ] || t1=$(awk -v t="$t0" 'BEGIN { print t + 1 }')

# panel NOTE COLUMN:SERIES...: a panel's plot command, of the series whose column has
# values; NOTE in the middle of an empty panel when none has.
panel() {
	local note=$1 list="" s has
	shift
	for s in "$@"; do
		has=has_${s%%:*}
		[ "${!has}" = 1 ] && list="$list${list:+, }'trace.csv' using 't_s':${s#*:}"
	done
	if [ -n "$list" ]; then
		echo "plot $list"
	else
		echo "set yrange [0:1]"
		echo "set format y ''"
		echo "set label 1 '$note' at graph 0.5,0.5 center"
		echo "plot NaN notitle"
		echo "unset label 1"
	fi
}

gib='/2.**30'
{
	cat <<EOF
set terminal $(gnuplot -e 'print GPVAL_TERMINALS' 2>&1 | grep -qw pngcairo &&
	echo 'pngcairo size 1200,800 noenhanced font "sans,10"' ||
	echo 'png truecolor size 1200,800 noenhanced')
set output 'trace.png'
set datafile separator ','
set datafile columnheaders
set multiplot layout 2,1 title '${title//\'/\'\'}'
set lmargin 12
set rmargin 12
set xrange [$t0:$t1]
set grid
# room above the lines for the key
set offsets 0, 0, graph 0.15, 0
set key top center horizontal opaque
set ylabel 'memory (GiB)'
set yrange [0:*]
set format x ''
EOF
	panel 'no memory figures: every one unread' \
		"removed_bytes:(column('removed_bytes')$gib) with fillsteps fs transparent solid 0.25 noborder lc rgb 'gray40' title 'removed_bytes'" \
		"max_mem:(column('max_mem')$gib) with steps dt 2 lw 1.5 lc rgb 'dark-red' title 'max_mem'" \
		"min_mem:(column('min_mem')$gib) with steps dt 2 lw 1.5 lc rgb 'dark-green' title 'min_mem'" \
		"mem_bytes:(column('mem_bytes')$gib) with steps lw 2 lc rgb 'blue' title 'mem_bytes'"
	cat <<EOF
set xlabel 'time (s)'
set format x '%g'
set ylabel 'DRAM power (W)'
set yrange [0:*]
set format y '%g'
EOF
		[ "$has_ranks_on" = 1 ] && cat <<EOF
set ytics nomirror
set y2label 'ranks on'
# the ranks in the lower half, apart from the power they draw
set y2tics 0, 1, $ranks
set y2range [0:$((2 * ranks + 1))]
EOF
	panel 'no DRAM power domains (dram_power): a VM guest' \
		"all_on_mw:(column('all_on_mw')/1000.) with steps dt 2 lw 1.5 lc rgb 'gray30' title 'all_on_mw (every rank on)'" \
		"dram_mw:(column('dram_mw')/1000.) with steps lw 2 lc rgb 'red' title 'dram_mw'" \
		"ranks_on:(column('ranks_on')) axes x1y2 with steps lw 1.5 lc rgb 'purple' title 'ranks_on'"
	echo 'unset multiplot'
} > "$tmp/plot.gp"

(cd "$tmp" && gnuplot plot.gp) > "$tmp/gnuplot.log" 2>&1 ||
	{ cat "$tmp/gnuplot.log" >&2; die "gnuplot failed on $csv"; }
[ -s "$tmp/trace.png" ] || die "gnuplot wrote no PNG for $csv"
mv "$tmp/trace.png" "$png" 2> /dev/null || die "cannot write $png"
