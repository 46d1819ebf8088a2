#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Every x86 board's generated ACPI tables (the boards whose 'boardgen needs' lists them:
# not a VM board, which has none) compile with the real iasl without an error,
# warning or remark; on boards with 'firmware acpi' the SSDT's methods run in ACPICA's
# acpiexec (with a DSDT stub declaring QEMU's IPMI device): out-of-range arguments
# answer 0x300 (nothing is sent), and with acpiexec's dummy IPMI handler (status 0, the
# request's bytes back: its Get Device ID does not name the board's BMC) 0x302, before
# any OEM command is sent.
top=$(cd "$(dirname "$0")/../.." && pwd)
boardgen=$top/build/host/boardgen
command -v iasl > /dev/null || { echo "SKIP: no iasl (acpica-tools)"; exit 4; }
[ -x "$boardgen" ] || { echo "SKIP: $boardgen is not built"; exit 4; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# iasl FILE: compile; fail unless clean.
compile() {
	if ! iasl -vs -p "${1%.asl}" "$1" > "$1.log" 2>&1 ||
		! grep -q ' 0 Errors, 0 Warnings, 0 Remarks' "$1.log"; then
		cat "$1.log"
		echo "FAIL: $2: iasl did not compile it cleanly"
		exit 1
	fi
}

cat > "$tmp/dsdt.asl" <<-'ASL'
DefinitionBlock ("", "DSDT", 2, "ACMA", "TESTDSDT", 1)
{
    Scope (\_SB)
    {
        Device (PCI0)
        {
            Name (_HID, EisaId ("PNP0A08"))
            Device (SF8)
            {
                Name (_ADR, 0x001F0000)
                Device (MI1)
                {
                    Name (_HID, "IPI0001")
                }
            }
        }
    }
}
ASL
compile "$tmp/dsdt.asl" "DSDT stub"

n=0
for hw in "$top"/boards/*/board.hw; do
	eval "$("$boardgen" shell "$hw")" || { echo "FAIL: $hw"; exit 1; }
	needs=$("$boardgen" needs "$hw") || { echo "FAIL: boardgen needs $hw"; exit 1; }
	if ! echo "$needs" | grep -qx mpst; then
		echo "$BOARD_NAME: no ACPI tables ($BOARD_ARCH, firmware $BOARD_FIRMWARE)"
		continue
	fi
	d=$tmp/$BOARD_NAME
	mkdir -p "$d"
	for t in mpst ssdt; do
		"$boardgen" $t "$hw" > "$d/$t.asl" || { echo "FAIL: boardgen $t $hw"; exit 1; }
		compile "$d/$t.asl" "$BOARD_NAME $t"
	done
	echo "$BOARD_NAME: mpst.aml $(stat -c %s "$d/mpst.aml") bytes, ssdt.aml $(stat -c %s "$d/ssdt.aml") bytes, firmware $BOARD_FIRMWARE"
	n=$((n + 1))
	[ "$BOARD_FIRMWARE" = acpi ] || continue
	command -v acpiexec > /dev/null || { echo "SKIP: no acpiexec (acpica-tools)"; exit 4; }
	nstates=$("$boardgen" states "$hw" | wc -l)
	out=$(timeout 60 acpiexec -b "evaluate \_SB.ACMA.RGET $BOARD_RANKS; evaluate \_SB.ACMA.RSET 0 $nstates; evaluate \_SB.ACMA.RGET 0; evaluate \_SB.ACMA.RSET 0 0" \
		"$tmp/dsdt.aml" "$d/ssdt.aml" 2>&1)
	got=$(echo "$out" | sed -n 's/^ *\[Integer\] = 0*\([0-9A-F]*\)$/\1/p' | tr '\n' ' ')
	echo "  acpiexec: RGET($BOARD_RANKS) RSET(0, $nstates) RGET(0) RSET(0, 0) -> $got"
	if [ "$got" != "300 300 302 302 " ] || echo "$out" | grep -q 'ACPI Error\|AE_'; then
		echo "$out" | tail -n 30
		echo "FAIL: $BOARD_NAME: the SSDT's methods did not answer 0x300 0x300 0x302 0x302"
		exit 1
	fi
done
[ $n -gt 0 ] || { echo "SKIP: no board with ACPI tables"; exit 4; }
