#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# `make deb`: a Debian binary package of the operator tools, acma-tools_VERSION_ARCH.deb.
#
#   deb.sh OUTDIR
#
# The tools are built again with Debian's build flags (dpkg-buildflags, hardening=+all) and stripped, then installed with `make install PREFIX=/usr` into a staging
# root, units in /lib/systemd/system as Debian 12 wants them, man pages and the
# changelog compressed with gzip -9n, the copyright in the machine-readable format;
# dpkg-shlibdeps computes the library dependencies and dpkg-deb builds the package
# (owned by root). The maintainer is DEB_MAINTAINER or the commit's author. The version is 0~gitDATE.HASH of the commit built (+dirty when the
# tree has changes). OUTDIR/acma-tools.deb links to the package made last.
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
out=$(mkdir -p "$1" && cd "$1" && pwd)
cd "$top"

pkg=acma-tools
arch=$(dpkg --print-architecture)
hash=$(git rev-parse --short=12 HEAD)
version=$("$top/scripts/version.sh")
date=$(git log -1 --format=%cd --date=rfc2822)
# The maintainer: DEB_MAINTAINER, else the author of the commit built.
maintainer=${DEB_MAINTAINER:-$(git log -1 --format='%an <%ae>')}

stage=$out/stage
bin=$out/bin
rm -rf "$stage" "$bin"
mkdir -p "$stage/DEBIAN" "$bin"

# Debian's flags, all hardening on (bindnow too): the tools as Debian would build them.
export DEB_BUILD_MAINT_OPTIONS=hardening=+all
cflags="$(dpkg-buildflags --get CPPFLAGS) $(dpkg-buildflags --get CFLAGS)"
ldflags=$(dpkg-buildflags --get LDFLAGS)
for t in acmactl acma-ranks acma-trace; do
	# shellcheck disable=SC2086
	gcc -std=gnu11 -Wall -Wextra -Werror $cflags $ldflags -DACMA_VERSION="\"$version\"" \
		-Itools/lib -o "$bin/$t" \
		tools/$t/*.c tools/lib/*.c
	strip --remove-section=.comment --remove-section=.note --strip-unneeded "$bin/$t"
done
make --no-print-directory -s man
# The freshly built binaries in place of build/host's, through make install's own rules.
make --no-print-directory -s install DESTDIR="$stage" PREFIX=/usr UNITDIR=/lib/systemd/system
install -m 755 "$bin/acma-ranks" "$bin/acma-trace" "$stage/usr/bin/"
install -m 755 "$bin/acmactl" "$stage/usr/sbin/"
gzip -9n "$stage"/usr/share/man/man*/*

doc=$stage/usr/share/doc/$pkg
install -d "$doc"
cat > "$doc/copyright" <<EOF
Format: https://www.debian.org/doc/packaging-manuals/copyright-format/1.0/
Upstream-Name: acma
Comment: The operator tools of acma (tools/ of its repository): acmactl, acma-ranks,
 acma-trace, their man pages, bash completions and systemd units.

Files: *
Copyright: $(git log -1 --format=%cd --date=format:%Y) the acma authors
License: GPL-2
 This program is free software; you can redistribute it and/or modify it under the
 terms of the GNU General Public License version 2 as published by the Free Software
 Foundation.
 .
 On Debian systems, the full text of the GNU General Public License version 2 can be
 found in the file '/usr/share/common-licenses/GPL-2'.
EOF
{
	echo "$pkg ($version) unstable; urgency=medium"
	echo
	echo "  * Built from commit $hash."
	echo
	echo " -- $maintainer  $date"
} > "$doc/changelog"
gzip -9n "$doc/changelog"
chmod 644 "$doc/copyright" "$doc/changelog.gz"

# Library dependencies, by dpkg-shlibdeps (it wants a debian/control beside it).
mkdir -p "$out/shlibs/debian"
printf 'Source: %s\n\nPackage: %s\nArchitecture: any\n' "$pkg" "$pkg" > "$out/shlibs/debian/control"
depends=$(cd "$out/shlibs" && dpkg-shlibdeps -O "$stage"/usr/bin/* "$stage"/usr/sbin/* 2> /dev/null |
	sed -n 's/^shlibs:Depends=//p')

size=$(du -sk --exclude=DEBIAN "$stage" | cut -f1)
cat > "$stage/DEBIAN/control" <<EOF
Package: $pkg
Version: $version
Architecture: $arch
Maintainer: $maintainer
Installed-Size: $size
Depends: $depends
Recommends: ipmitool
Suggests: prometheus-node-exporter
Section: admin
Priority: optional
Description: DRAM power and memory auto-scaling: operator tools
 acmactl shows and sets DAMON_ACMA, the kernel's memory auto-scaling, with the
 memory blocks grouped by DRAM rank and each rank's power state, as text, JSON
 or metrics for Prometheus (OpenMetrics or the node_exporter textfile format).
 acma-trace records it over time as CSV. acma-ranks shows the DRAM ranks as the
 board's BMC sees them, through ipmitool.
 .
 The package also has the systemd service and timer that write acmactl's
 metrics into node_exporter's textfile collector directory every 15 s (not
 enabled), the man pages and bash completions.
EOF
(cd "$stage" && find . -path ./DEBIAN -prune -o -type f -printf '%P\n' | sort | xargs md5sum) \
	> "$stage/DEBIAN/md5sums"
chmod 644 "$stage/DEBIAN/control" "$stage/DEBIAN/md5sums"
deb=$out/${pkg}_${version}_$arch.deb
dpkg-deb --root-owner-group -Zxz --build "$stage" "$deb" > /dev/null
ln -sf "$(basename "$deb")" "$out/$pkg.deb"
echo "  DEB      $deb"
