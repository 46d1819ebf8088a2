#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# The version of the tools built from this tree, one line: 0~gitDATE.HASH (the
# commit's date and 12 hex digits of its hash), +dirty when tools/, the Makefile
# or this script have changes not committed; 0~unknown outside a git checkout.
# The tools' -V/--version print it and `make deb` gives it to the package.
top=$(cd "$(dirname "$0")/.." && pwd)
hash=$(git -C "$top" rev-parse --short=12 HEAD 2> /dev/null) || { echo 0~unknown; exit 0; }
version=0~git$(git -C "$top" log -1 --format=%cd --date=format:%Y%m%d).$hash
[ -z "$(git -C "$top" status --porcelain -- tools Makefile scripts/deb.sh scripts/version.sh)" ] ||
	version=$version+dirty
echo "$version"
