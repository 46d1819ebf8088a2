#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Who may do what on a private BMC, over every way in ipmitool has: lanplus with each
# cipher suite 0-17, IPMI 1.5 (-I lan) with each authentication type, the anonymous
# user, the null user name, a wrong password, and user, operator and administrator
# accounts, each also asking (-L) for more or less than the account has. For every row
# three things an operator would check: can it read a rank (0x30 0x43), power rank 0
# off (0x30 0x44, checked by reading the rank back as administrator), change the
# administrator's password (Set User Password, checked by logging in with the new one)?
# Reads need an authenticated user, power changes and Set User Password the
# administrator; a session never acts above its account's own privilege.
. "$(dirname "$0")/lib/bmc.sh"
own_bmc_setup
oper=acma-oper oper_pw=acma-oper-pw
bmc_extra_users="user 4 true \"$oper\" \"$oper_pw\" operator 10 md5"
own_bmc_start

admin=$CONFIG_BMC_ADMIN_USER admin_pw=$CONFIG_BMC_ADMIN_PASSWORD
mon=$CONFIG_BMC_USER mon_pw=$CONFIG_BMC_USER_PASSWORD
new_pw=changed-by-test

# as IFACE SUITE-OR-AUTH USER PASSWORD LEVEL ARGS...: one ipmitool command, bounded.
as() {
	local iface=$1 ca=$2 u=$3 p=$4 l=$5 sel
	shift 5
	if [ "$iface" = lanplus ]; then sel="-C $ca"; else sel="-A $ca"; fi
	timeout 20 ipmitool -I "$iface" -H 127.0.0.1 -p "$lan_port" $sel -U "$u" -P "$p" \
		-L "$l" -R 1 -N 1 "$@"
}
adm() { as lanplus 3 "$admin" "$admin_pw" ADMINISTRATOR "$@" 2>/dev/null; }
rank0() { adm raw 0x30 0x43 0 | awk '{ print $2 }'; }

# row IFACE SUITE-OR-AUTH USER PASSWORD LEVEL "READ POWER PASSWD" [NOTE]: try the three
# actions, print the row, count it failed unless each outcome is the expected one.
rows=0 bad=0
row() {
	local iface=$1 ca=$2 u=$3 p=$4 l=$5 want=$6 note=${7:-} r w pw got ans
	# read
	ans=$(as "$iface" "$ca" "$u" "$p" "$l" raw 0x30 0x43 0 2>/dev/null)
	case $ans in " 00 "*|"00 "*) r=ok ;; *) r=no ;; esac
	# power rank 0 off; the administrator looks and puts it back on
	[ "$(rank0)" = 00 ] || fail "rank 0 is not on before the power row"
	as "$iface" "$ca" "$u" "$p" "$l" raw 0x30 0x44 0 1 > /dev/null 2>&1
	w=no
	if [ "$(rank0)" = 01 ]; then
		w=ok
		adm raw 0x30 0x44 0 0 > /dev/null || fail "cannot put rank 0 back on"
	fi
	# Set User Password of the administrator (user 2): still the old one? Else log in
	# with the new one and put the old one back. (Trying the new password first would
	# leave a half-open session behind each time, for 30 s.)
	as "$iface" "$ca" "$u" "$p" "$l" user set password 2 "$new_pw" 16 > /dev/null 2>&1
	pw=no
	if ! adm mc info > /dev/null; then
		as lanplus 3 "$admin" "$new_pw" ADMINISTRATOR user set password 2 "$admin_pw" 16 \
			> /dev/null 2>&1 || fail "the administrator cannot log in any more"
		pw=ok
	fi
	got="$r $w $pw"
	rows=$((rows + 1))
	if [ "$got" = "$want" ]; then verdict=PASS; else verdict=FAIL; bad=$((bad + 1)); fi
	printf '%-4s %-8s %-8s %-14s %-13s %-10s %-10s %s\n' "$verdict" "$iface" "$ca" \
		"${u:-(empty)}" "$l" "$want" "$got" "$note"
}

printf '%-4s %-8s %-8s %-14s %-13s %-10s %-10s\n' "" iface "cs/auth" account "-L" \
	"want r/p/w" "got r/p/w"
none="no no no" read="ok no no" all="ok ok ok"
# lanplus, cipher suite 3 (RAKP-HMAC-SHA1, HMAC-SHA1-96, AES-CBC-128)
row lanplus 3 "" "" USER "$none" anonymous
row lanplus 3 "" "$admin_pw" ADMINISTRATOR "$none" "null user name, admin's password"
row lanplus 3 "$admin" "not-$admin_pw" ADMINISTRATOR "$none" "wrong password"
row lanplus 3 "$admin" "$admin_pw" ADMINISTRATOR "$all"
row lanplus 3 "$admin" "$admin_pw" OPERATOR "$read"
row lanplus 3 "$admin" "$admin_pw" USER "$read"
row lanplus 3 "$oper" "$oper_pw" OPERATOR "$read"
row lanplus 3 "$oper" "$oper_pw" ADMINISTRATOR "$none"
row lanplus 3 "$mon" "$mon_pw" USER "$read"
row lanplus 3 "$mon" "$mon_pw" OPERATOR "$none"
row lanplus 3 "$mon" "$mon_pw" ADMINISTRATOR "$none"
row lanplus 3 "$mon" "$mon_pw" CALLBACK "$none"
# (r/p/w: read a rank, power rank 0 off, write the administrator's password)
# every cipher suite: only those with password authentication and integrity that both
# ipmitool and ipmi_sim 2.0.33 implement open a session: 2 and 3. ipmi_sim has no RC4
# (4, 5, 9, 10, 13, 14) and no SHA-256 (15-17); the plugin refuses everything in
# sessions without authentication or integrity (0, 1, 6); with MD5 integrity (7, 8,
# 11, 12) ipmi_sim never answers after RAKP 4 (the two disagree on the integrity
# code), and such a session stays open until it times out (30 s), so those suites get
# one row each, not to fill the session table.
for cs in $(seq 0 17); do
	case $cs in 2|3) want=$all ;; *) want=$none ;; esac
	row lanplus "$cs" "$admin" "$admin_pw" ADMINISTRATOR "$want"
	case $cs in 7|8|11|12) continue ;; esac
	case $cs in 2|3) want=$read ;; *) want=$none ;; esac
	row lanplus "$cs" "$mon" "$mon_pw" USER "$want"
	row lanplus "$cs" "$mon" "$mon_pw" ADMINISTRATOR "$none"
done
# IPMI 1.5: only MD5 is allowed in lan.conf
for auth in NONE PASSWORD MD2 MD5; do
	want=$none; [ $auth = MD5 ] && want=$all
	row lan $auth "$admin" "$admin_pw" ADMINISTRATOR "$want"
	want=$none; [ $auth = MD5 ] && want=$read
	row lan $auth "$mon" "$mon_pw" USER "$want"
	row lan $auth "$mon" "$mon_pw" ADMINISTRATOR "$none"
done
row lan MD5 "$oper" "$oper_pw" OPERATOR "$read"
row lan MD5 "$oper" "$oper_pw" ADMINISTRATOR "$none"
row lan MD5 "" "" USER "$none" anonymous
row lan MD5 "$admin" "not-$admin_pw" ADMINISTRATOR "$none" "wrong password"

echo "$rows rows, $bad not as expected"
[ "$bad" = 0 ] || fail "$bad rows of the privilege matrix are not as expected"
