#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Check the DRAM power node's binding and the board's node against it, with Debian's
# dt-schema tools (2022.08 on Debian 12; the kernel's `make dt_binding_check` wants a
# newer one):
#
#   dt-check.sh BINDINGS-DIR BINDING DTB
#
#   1. dt-doc-validate -u BINDINGS-DIR BINDING   the binding is a valid schema
#   2. dt-mk-schema -j BINDINGS-DIR              dt-schema's own schemas and the
#                                                bindings, processed (DTB.schema.json)
#   3. dt-validate -s PROCESSED                  the binding's examples and DTB
#
# dt-validate exits 0 even when a node fails its schema, so anything it prints on
# stderr (each message names the node path and the schema) fails the check. Without
# the tools or the binding the check is skipped with a message; exit status 0 then.
# On success DTB.checked is written, for make.
set -eu

bindings=$1 binding=$2 dtb=$3
skip() { printf '  %-8s %s\n' SKIP "dt-check: $*"; exit 0; }
fail() { echo "error: dt-check: $*" >&2; exit 1; }

for t in dt-doc-validate dt-mk-schema dt-validate dt-extract-example dtc; do
	command -v $t > /dev/null ||
		skip "$t is not installed (make deps installs dt-schema and device-tree-compiler)"
done
[ -f "$binding" ] || skip "no binding $binding yet"

printf '  %-8s %s\n' DTCHECK "$dtb against $binding"
work=$dtb.check.d
rm -rf "$work" "$dtb.checked"
mkdir -p "$work"

# check WHAT COMMAND...: run a check; its messages on stderr fail it.
check() {
	what=$1
	shift
	if ! "$@" > "$work/out" 2> "$work/err" || [ -s "$work/err" ]; then
		cat "$work/out" "$work/err" >&2
		fail "$what"
	fi
}

check "the binding is not a valid schema" dt-doc-validate -u "$bindings" "$binding"
check "dt-mk-schema failed" dt-mk-schema -j -o "$work/processed.json" "$bindings"
dt-extract-example "$binding" > "$work/example.dts"
# the examples sit in example-N nodes without reg: dtc's address-size check is noise
check "the binding's example does not compile" dtc -I dts -O dtb \
	-Wno-avoid_unnecessary_addr_size -o "$work/example.dtb" "$work/example.dts"
check "the binding's example does not match the binding" \
	dt-validate -s "$work/processed.json" "$work/example.dtb"
check "$dtb does not match the binding" dt-validate -s "$work/processed.json" "$dtb"
rm -rf "$work"
: > "$dtb.checked"
