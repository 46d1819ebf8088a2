#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Records the fixtures of acma-ranks' golden-output tests (README.md beside this
# script) from a real private BMC: ipmi_sim with acma's plugin on the default board,
# started by tests/e2e/host/lib/bmc.sh. Every answer is the real ipmitool's, saved by
# `acma-ranks --record`; the expected outputs are acma-ranks --replay of them. Run it
# again after a change to the BMC, to ipmitool or to acma-ranks' queries, then review
# the differences (git diff) before committing them.
#
#   tests/tools/acma-ranks/record.sh
. "$(dirname "$0")/../../e2e/host/lib/bmc.sh"
tool=$top/build/host/acma-ranks
here=$top/tests/tools/acma-ranks
[ -x "$tool" ] || fail "$tool is missing: run make"
own_bmc_setup
own_bmc_start

# record NAME USER PASSWORD PORT [--ipmitool PATH]: one scenario, then its outputs.
record() {
	local name=$1 user=$2 password=$3 port=$4 dir=$here/$1
	shift 4
	rm -rf "$dir"
	mkdir -p "$dir"
	"$tool" -H 127.0.0.1 -p "$port" -U "$user" -P "$password" --record "$dir" "$@" \
		> /dev/null 2>&1
	# The golden test replays with these options: the port differs at every run, and
	# a replay needs no password.
	echo "-H 127.0.0.1 -p 623 -U $user -P unused" > "$dir/args"
	"$tool" $(cat "$dir/args") --replay "$dir" > "$dir/expected.txt" 2> "$dir/expected.err"
	echo $? > "$dir/expected.rc"
	"$tool" $(cat "$dir/args") --replay "$dir" --json > "$dir/expected.json" 2> /dev/null
	echo "$name: exit $(cat "$dir/expected.rc")"
}

user=$CONFIG_BMC_USER pw=$CONFIG_BMC_USER_PASSWORD
record all-on "$user" "$pw" "$lan_port"

# Ranks 2 and 3 off; rank 6 off and on again, so it is on with a last change.
for s in "2 1" "3 1" "6 1" "6 0"; do
	bmc_admin raw 0x30 0x44 $s > /dev/null || fail "raw 0x30 0x44 $s"
done
record ranks-off "$user" "$pw" "$lan_port"

# A BMC that stops answering for a moment: the real ipmitool, with ipmi_sim frozen
# (SIGSTOP) while it asks for rank 5's state, so that only that answer is lost. The
# commands come on ipmitool's stdin (exec /dev/stdin), and ipmitool reads ahead: this
# wrapper passes them on in step with their answers (after each "echo" marker it waits
# for the marker to come back, passing on what ipmitool printed, line-buffered by
# stdbuf), freezes the BMC as it passes that command and thaws it once its marker came
# back, i.e. once ipmitool gave up (2 tries of 1 s) and went on, in the same session.
cat > "$own_dir/freeze-rank5" <<-'FREEZE'
#!/bin/bash
coproc IPMI { stdbuf -oL ipmitool "$@" 2>&1; }
pid=$IPMI_PID
exec {to}>&"${IPMI[1]}" {from}<&"${IPMI[0]}"
frozen=
while IFS= read -r line; do
	case " $line " in
	*" raw 0x30 0x43 5 "*) kill -STOP "$BMC_PID"; frozen=1 ;;
	esac
	printf '%s\n' "$line" >&"$to"
	case $line in
	"echo "*)
		while IFS= read -r out <&"$from"; do
			printf '%s\n' "$out"
			[ "$out" = "${line#echo } " ] && break
		done
		[ -z "$frozen" ] || { kill -CONT "$BMC_PID"; frozen=; } ;;
	esac
done
exec {to}>&- {IPMI[1]}>&-
cat <&"$from"
wait "$pid"
FREEZE
chmod +x "$own_dir/freeze-rank5"
export BMC_PID=$bmc_pid
record bmc-frozen-rank5 "$user" "$pw" "$lan_port" --ipmitool "$own_dir/freeze-rank5"

record wrong-password "$CONFIG_BMC_ADMIN_USER" not-the-password "$lan_port"
record unknown-user nobody "$pw" "$lan_port"
record unreachable "$user" "$pw" "$(pick_port)"

# Interleaved ranks (several ranges each): a new BMC, with an empty SEL, on that board.
own_bmc_stop
rm -rf "$out/bmc"
board_file=$top/boards/qemu-x86_64-interleaved/board.hw
# Its own backing files: the BMC punches a rank's files when it powers the rank off.
while read -r _ _ path _ size; do
	truncate -s "$size" "$path" || fail "cannot create $path"
done < <("$boardgen" backing-files "$board_file" "$shm_dir" "$shm_prefix")
own_bmc_start
bmc_admin raw 0x30 0x44 1 1 > /dev/null || fail "raw 0x30 0x44 1 1"
record interleaved "$user" "$pw" "$lan_port"
