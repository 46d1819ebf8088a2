#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Build an ipmi_sim without CVE-2024-42934, once per machine.
#
#   ipmi-sim.sh      progress on stderr; the binary's absolute path is the last (and
#                    only) line on stdout: ipmi_sim=$(scripts/ipmi-sim.sh | tail -n1)
#
# Debian 12's ipmi_sim (OpenIPMI 2.0.33) dies on SIGSEGV on one LAN packet from anyone
# who knows a user name: the session header's authentication type indexes lanserv's
# table of authentication handlers unchecked (CVE-2024-42934, fixed upstream in 2.0.36,
# not in Debian 12). So this rebuilds Debian's own openipmi source package, fetched with
# `apt-get source` through a private deb-src list for the archive the host already uses
# (the host's apt setup is left alone), with Debian's patches applied (dpkg-source -x)
# and one of acma's own, firmware-glue/bmc/patches/openipmi-cve-2024-42934.patch, which
# range-checks the type. Only what ipmi_sim needs is built: libOpenIPMIutils,
# libOpenIPMIposix, libIPMIlanserv and ipmi_sim itself, no Perl, Python, Tcl, glib or
# SNMP. The binary finds its own libraries through its RUNPATH (libtool's, from the
# prefix: the cache entry's lib/), never Debian's vulnerable libIPMIlanserv; acma's
# plugin, built against Debian's libopenipmi-dev headers, loads into it because the
# headers of the rebuilt source are checked to be the same.
#
# The result is cached outside the clone, in /var/cache/acma/ipmi-sim/VERSION-HASH/
# (VERSION: the source package's, HASH: this script's and the patch's, so that a changed
# recipe rebuilds). A build runs in a temporary folder that is renamed to VERSION-HASH
# only once the binary passed its checks; the log of the last build is build.log there.
# The source version is the archive's newest when the build runs: to pick up a newer
# one, or to force a rebuild, remove the cache folder. Old entries are never used again
# and can be removed.
#
# ACMA_OPENIPMI_SOURCE=DIR builds an unpacked OpenIPMI source tree of Debian's upstream
# version instead (for a machine whose archive mirror lacks the source package); its
# entry is named VERSION+local-HASH and is used like any other.
set -eu

cache=${ACMA_IPMI_SIM_CACHE:-/var/cache/acma/ipmi-sim}
top=$(cd "$(dirname "$0")/.." && pwd)
patch=$top/firmware-glue/bmc/patches/openipmi-cve-2024-42934.patch
hash=$(cat "$0" "$patch" | sha256sum | cut -c1-12)

log() { printf '  %-8s %s\n' "$1" "$2" >&2; }
die() { echo "ipmi-sim.sh: $*" >&2; exit 1; }

# Built already: print the path and nothing else. Entries appear only by rename.
done_path() {
	for b in "$cache"/*-"$hash"/bin/ipmi_sim; do
		[ -x "$b" ] && echo "$b"
	done | tail -n1
}
b=$(done_path)
[ -z "$b" ] || { echo "$b"; exit 0; }

# An archive without the source package is asked again after a day, not at every run.
unavailable=$cache/unavailable-$hash
if [ -z "${ACMA_OPENIPMI_SOURCE:-}" ] && [ -n "$(find "$unavailable" -mmin -1440 2>/dev/null)" ]; then
	die "the archive had no openipmi source at $(cat "$unavailable"); remove $unavailable to try again"
fi

# One build per machine at a time: a second caller waits, then finds the result.
mkdir -p "$cache"
exec 9> "$cache/lock"
if ! flock -n 9; then
	log WAIT "another build of ipmi_sim is running"
	flock 9
fi
b=$(done_path)
[ -z "$b" ] || { echo "$b"; exit 0; }

for t in apt-get dpkg-source autoreconf libtoolize make patch pkg-config; do
	command -v $t >/dev/null || die "$t is missing: run 'make deps'"
done

# Whatever a killed build left behind is stale: we hold the lock.
rm -rf "$cache"/tmp.*
tmp=$cache/tmp.$$
trap 'rm -rf "$tmp"' EXIT
trap 'exit 1' INT TERM HUP
buildlog=$cache/build.log
mkdir -p "$tmp/src"
: > "$buildlog"
failed() { tail -n 20 "$buildlog" >&2; die "$1 failed: see $buildlog"; }
start=$(date +%s)

if [ -n "${ACMA_OPENIPMI_SOURCE:-}" ]; then
	# 1'. A local source tree, copied: the build never writes into it.
	[ -f "$ACMA_OPENIPMI_SOURCE/lanserv/lanserv_ipmi.c" ] ||
		die "ACMA_OPENIPMI_SOURCE=$ACMA_OPENIPMI_SOURCE is no OpenIPMI source tree"
	version=$(sed -n 's/^AC_INIT(\[*OpenIPMI\]*, *\[*\([0-9.]*\).*/\1/p' \
		"$ACMA_OPENIPMI_SOURCE/configure.ac")+local
	[ "$version" != +local ] || die "no version in $ACMA_OPENIPMI_SOURCE/configure.ac"
	log UNPACK "OpenIPMI $version from $ACMA_OPENIPMI_SOURCE (not Debian's source package)"
	cp -a "$ACMA_OPENIPMI_SOURCE" "$tmp/src/openipmi"
else
	# 1. Debian's openipmi source: a private deb-src list with the host's Debian
	# archives (deb entries of this release and its -updates/-security suites), private
	# lists and caches, so the host's /etc/apt and /var/lib/apt stay untouched.
	apt=$cache/apt
	mkdir -p "$apt/lists/partial" "$apt/cache"
	# shellcheck source=/dev/null
	. /etc/os-release
	# shellcheck disable=SC2016 # apt's own $(FIELD) syntax
	apt-get indextargets --format '$(REPO_URI) $(RELEASE) $(COMPONENT)' 'Created-By: Packages' |
		awk -v c="$VERSION_CODENAME" '$2 ~ "^" c "(-|$)" { print "deb-src " $0 }' |
		sort -u > "$apt/sources.list"
	[ -s "$apt/sources.list" ] || die "no Debian $VERSION_CODENAME archive in the host's apt sources"
	aptget() {
		apt-get -q -o Dir::Etc::SourceList="$apt/sources.list" -o Dir::Etc::SourceParts=/dev/null \
			-o Dir::State::Lists="$apt/lists" -o Dir::Cache="$apt/cache" \
			-o APT::Sandbox::User=root "$@" >> "$buildlog" 2>&1
	}
	log FETCH "Debian's openipmi source ($(awk '{print $3}' "$apt/sources.list" | tr '\n' ' ' | sed 's/ $//'))"
	aptget update || failed "apt-get update"
	if ! (cd "$tmp/src" && aptget source --download-only openipmi); then
		date -u +%Y-%m-%dT%H:%M:%SZ > "$unavailable"
		failed "apt-get source openipmi (or set ACMA_OPENIPMI_SOURCE=DIR)"
	fi
	dsc=$(ls "$tmp/src"/openipmi_*.dsc)
	version=$(basename "$dsc" .dsc | sed 's/^openipmi_//')
	log UNPACK "openipmi $version with Debian's patches"
	dpkg-source -x "$dsc" "$tmp/src/openipmi" >> "$buildlog" 2>&1 || failed "dpkg-source -x"
fi

# 2. acma's patch, then the build system (autoreconf: Debian's patches may touch it).
cd "$tmp/src/openipmi"
log PATCH "$(basename "$patch")"
patch -p1 --no-backup-if-mismatch < "$patch" >> "$buildlog" 2>&1 || failed "patch"
autoreconf -fi >> "$buildlog" 2>&1 || failed "autoreconf"

# 3. Build into the entry's final prefix (libtool sets the binary's RUNPATH to its
# lib/), installed under $tmp/stage; only the three libraries and ipmi_sim.
key=$cache/$version-$hash
log CONFIG "OpenIPMI $version for ipmi_sim only: no Perl, Python, Tcl, glib, SNMP"
./configure --prefix="$key" --disable-static --without-perl --without-python \
	--without-tcl --without-glib --without-tkinter --without-swig --without-ucdsnmp \
	>> "$buildlog" 2>&1 || failed "configure"
log BUILD "utils, unix, lanserv ($(nproc) jobs, log in $buildlog)"
for d in include utils unix lanserv/OpenIPMI; do
	make -C "$d" -j"$(nproc)" >> "$buildlog" 2>&1 || failed "make -C $d"
done
make -C lanserv -j"$(nproc)" libIPMIlanserv.la ipmi_sim >> "$buildlog" 2>&1 ||
	failed "make -C lanserv"
stage=$tmp/stage
for d in utils unix lanserv/OpenIPMI; do
	make -C "$d" install DESTDIR="$stage" >> "$buildlog" 2>&1 || failed "make -C $d install"
done
make -C lanserv install-libLTLIBRARIES install-binPROGRAMS DESTDIR="$stage" \
	>> "$buildlog" 2>&1 || failed "make -C lanserv install"
make -C include install DESTDIR="$stage" >> "$buildlog" 2>&1 || failed "make -C include install"
end=$(date +%s)
log TIME "ipmi_sim build took $((end - start)) s"

# 4. Checks, then publish the entry by renaming it.
out=$stage$key
bin=$out/bin/ipmi_sim
[ -x "$bin" ] || die "no ipmi_sim in $out/bin"
# libtool's RUNPATH: the entry's own lib/, so never Debian's libIPMIlanserv
runpath=$(LC_ALL=C readelf -d "$bin" | sed -n 's/.*(R\(UN\)\?PATH).*\[\(.*\)\]/\2/p')
case ":$runpath:" in *":$key/lib:"*) ;; *) die "ipmi_sim's RUNPATH is '$runpath', not $key/lib" ;; esac
# the patch is in the library that handles LAN packets
grep -q 'Invalid auth type' "$out/lib/libIPMIlanserv.so.0" || die "libIPMIlanserv.so.0 is not patched"
# it starts and links against the entry's libraries (the RUNPATH's folder is $out/lib
# until the rename)
LD_LIBRARY_PATH=$out/lib "$bin" --help > /dev/null 2>&1 || die "the built ipmi_sim does not run"
LD_LIBRARY_PATH=$out/lib ldd "$bin" | grep -q "libIPMIlanserv.so.0 => $out/lib/" ||
	die "the built ipmi_sim does not use its own libIPMIlanserv"
# acma's plugin is built against Debian's libopenipmi-dev: the same structures, so the
# same headers (a local tree lacks Debian's patches: a difference is only reported)
if [ -d /usr/include/OpenIPMI ]; then
	for h in "$out"/include/OpenIPMI/*.h "$out"/include/OpenIPMI/*/*.h; do
		[ -f "$h" ] || continue
		rel=${h#"$out"/include/OpenIPMI/}
		[ ! -f "/usr/include/OpenIPMI/$rel" ] || cmp -s "$h" "/usr/include/OpenIPMI/$rel" &&
			continue
		diff -u "/usr/include/OpenIPMI/$rel" "$h" >> "$buildlog" || true
		[ -n "${ACMA_OPENIPMI_SOURCE:-}" ] ||
			die "OpenIPMI/$rel differs from libopenipmi-dev's: acma's plugin would not match"
		log WARN "OpenIPMI/$rel differs from libopenipmi-dev's (diff in $buildlog)"
	done
fi
cd /
mv "$out" "$key"
log IPMI_SIM "$key/bin/ipmi_sim (OpenIPMI $version, CVE-2024-42934 patched)"
echo "$key/bin/ipmi_sim"
