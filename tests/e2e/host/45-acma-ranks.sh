#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# acma-ranks (tools/acma-ranks) with the real ipmitool against a private BMC: every rank
# on; a rank an administrator powers off shows off, with the time of its change and
# a lower power, in the table and the JSON; the password read from a file (-f) or the
# environment (-E) and another cipher suite (-C 2) give the same table; the whole
# status is one ipmitool run (one RMCP+ session, its commands in batch mode); a wrong
# password exits 4 and an unreachable BMC (a closed port) exits 3 within seconds, each
# with its one-line message.
. "$(dirname "$0")/lib/bmc.sh"
tool=$top/build/host/acma-ranks
[ -x "$tool" ] || { echo "SKIP: build/host/acma-ranks not built"; exit 4; }
own_bmc_setup
own_bmc_start

ranks() { "$tool" -H 127.0.0.1 -p "$lan_port" -U "$CONFIG_BMC_USER" -P "$CONFIG_BMC_USER_PASSWORD" "$@"; }
# row RANK: that rank's line of the table in $own_dir/table.
row() { awk -v r="$1" 'NR > 1 && $1 == r' "$own_dir/table"; }

ranks > "$own_dir/table" 2> "$own_dir/err"
expect "exit, all ranks on" "$?" 0
cat "$own_dir/table"
[ -s "$own_dir/err" ] && fail "stderr: $(cat "$own_dir/err")"
expect "ranks on" "$(grep -c '^ *[0-9].* on  *- *1.35 W$' "$own_dir/table")" 8
expect "DRAM power, all on" "$(grep '^DRAM power now' "$own_dir/table")" "DRAM power now (DCMI):  11 W"
expect "saving, all on" "$(grep '^Saving' "$own_dir/table")" "Saving vs all ranks on: 0 W"

printf '%s\n' "$CONFIG_BMC_USER_PASSWORD" > "$own_dir/password"
"$tool" -H 127.0.0.1 -p "$lan_port" -U "$CONFIG_BMC_USER" -f "$own_dir/password" > "$own_dir/table.f"
expect "exit, password from a file (-f)" "$?" 0
expect "table, password from a file (-f)" "$(cat "$own_dir/table.f")" "$(cat "$own_dir/table")"
IPMI_PASSWORD=$CONFIG_BMC_USER_PASSWORD "$tool" -H 127.0.0.1 -p "$lan_port" -U "$CONFIG_BMC_USER" -E \
	> "$own_dir/table.E"
expect "exit, password from the environment (-E)" "$?" 0
expect "table, password from the environment (-E)" "$(cat "$own_dir/table.E")" "$(cat "$own_dir/table")"
# One ipmitool run for the whole table: a wrapper counts its runs.
cat > "$own_dir/count-ipmitool" <<-COUNT
#!/bin/bash
echo "\$*" >> "$own_dir/runs"
exec ipmitool "\$@"
COUNT
chmod +x "$own_dir/count-ipmitool"
ranks --ipmitool "$own_dir/count-ipmitool" > "$own_dir/table.1"
expect "exit, through a wrapper" "$?" 0
expect "table, through a wrapper" "$(cat "$own_dir/table.1")" "$(cat "$own_dir/table")"
expect "ipmitool runs for a status of 8 ranks" "$(wc -l < "$own_dir/runs")" 1
expect "its commands" "$(sed 's/.* -v //' "$own_dir/runs")" "exec /dev/stdin"
ranks -C 2 > "$own_dir/table.C"
expect "exit, cipher suite 2 (-C 2)" "$?" 0
expect "table, cipher suite 2" "$(cat "$own_dir/table.C")" "$(cat "$own_dir/table")"

expect "admin sets rank 4 off" "$(oem admin 0x44 4 1)" "04 01 00"
ranks > "$own_dir/table"
expect "exit, rank 4 off" "$?" 0
cat "$own_dir/table"
set -- $(row 4)
expect "rank 4 state" "$4" off
[ "$5" != - ] || fail "rank 4 has no SINCE time"
since=$(date -u -d "$5" +%s) || fail "SINCE '$5' is not a time"
[ $(($(date +%s) - since)) -lt 60 ] || fail "SINCE $5 is not the change a moment ago"
expect "rank 4 power" "$6 $7" "0 W"
expect "rank 3 unchanged" "$(row 3 | awk '{ print $4, $5, $6 }')" "on - 1.35"
expect "DRAM power, rank 4 off" "$(grep '^DRAM power now' "$own_dir/table")" "DRAM power now (DCMI):  9 W"
expect "saving, rank 4 off" "$(grep '^Saving' "$own_dir/table")" "Saving vs all ranks on: 1.35 W"
expect "JSON rank 4" "$(ranks --json | jq -c '.ranks[4] | [.state, .power_mw, (.since != null)]')" \
	'["off",0,true]'

out=$("$tool" -H 127.0.0.1 -p "$lan_port" -U "$CONFIG_BMC_ADMIN_USER" -P "not-$CONFIG_BMC_ADMIN_PASSWORD" 2>&1)
expect "exit, wrong password" "$?" 4
expect "message, wrong password" "$out" \
	"acma-ranks: the BMC at 127.0.0.1 port $lan_port refused the login of '$CONFIG_BMC_ADMIN_USER': wrong password"

closed=$(pick_port)
t0=$(date +%s)
out=$(ranks -p "$closed" 2>&1)
expect "exit, closed port" "$?" 3
expect "message, closed port" "$out" "acma-ranks: cannot reach the BMC at 127.0.0.1 port $closed: no answer over IPMI"
[ $(($(date +%s) - t0)) -le 10 ] || fail "an unreachable BMC took $(($(date +%s) - t0)) s"
