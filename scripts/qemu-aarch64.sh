#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Build a qemu-system-aarch64 that has an IPMI KCS device on PCI, once per machine.
#
#   qemu-aarch64.sh      progress on stderr; the binary's absolute path is the last
#                        (and only) line on stdout: qemu=$(scripts/qemu-aarch64.sh | tail -n1)
#
# Debian 12's qemu-system-aarch64 (7.2) has no IPMI devices, and the arm64 board's BMC
# is a pci-ipmi-kcs device in front of an ipmi-bmc-extern. So this rebuilds Debian's
# own qemu source package, fetched with `apt-get source` through a private deb-src list
# for the archive the host already uses (the host's apt setup is left alone), with
# Debian's patches applied (dpkg-source -x, which brings it to 7.2.x stable), for
# aarch64-softmmu only, with CONFIG_PCI_IPMI_KCS on.
#
# The result is cached outside the clone, in /var/cache/acma/qemu-aarch64/VERSION-HASH/
# (VERSION: the source package's, HASH: this script's, so that a changed recipe
# rebuilds). A build runs in a temporary folder that is renamed to VERSION-HASH only
# once the binary passed its checks; the log of the last build is build.log there.
# The source version is the archive's newest when the build runs: to pick up a newer
# one, remove the cache folder. Old entries are never used again and can be removed.
set -eu

cache=${ACMA_QEMU_CACHE:-/var/cache/acma/qemu-aarch64}
hash=$(sha256sum "$0" | cut -c1-12)

log() { printf '  %-8s %s\n' "$1" "$2" >&2; }
die() { echo "qemu-aarch64.sh: $*" >&2; exit 1; }

# Built already: print the path and nothing else. Entries appear only by rename.
done_path() {
	for b in "$cache"/*-"$hash"/bin/qemu-system-aarch64; do
		[ -x "$b" ] && echo "$b"
	done | tail -n1
}
b=$(done_path)
[ -z "$b" ] || { echo "$b"; exit 0; }

# One build per machine at a time: a second caller waits, then finds the result.
mkdir -p "$cache"
exec 9> "$cache/lock"
if ! flock -n 9; then
	log WAIT "another build of qemu-system-aarch64 is running"
	flock 9
fi
b=$(done_path)
[ -z "$b" ] || { echo "$b"; exit 0; }

for t in apt-get dpkg-source meson ninja pkg-config; do
	command -v $t >/dev/null || die "$t is missing: run 'make deps'"
done

# Whatever a killed build left behind is stale: we hold the lock.
rm -rf "$cache"/tmp.*
tmp=$cache/tmp.$$
trap 'rm -rf "$tmp"' EXIT
trap 'exit 1' INT TERM HUP
buildlog=$cache/build.log
mkdir -p "$tmp/src" "$tmp/out/bin"
: > "$buildlog"
failed() { tail -n 20 "$buildlog" >&2; die "$1 failed: see $buildlog"; }

# 1. Debian's qemu source: a private deb-src list with the host's Debian archives
# (deb entries of this release and its -updates/-security suites), private lists and
# caches, so the host's /etc/apt and /var/lib/apt stay untouched.
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
log FETCH "Debian's qemu source ($(awk '{print $3}' "$apt/sources.list" | tr '\n' ' ' | sed 's/ $//'))"
aptget update || failed "apt-get update"
(cd "$tmp/src" && aptget source --download-only qemu) || failed "apt-get source"
dsc=$(ls "$tmp/src"/qemu_*.dsc)
version=$(basename "$dsc" .dsc | sed 's/^qemu_//')
log UNPACK "qemu $version with Debian's patches"
dpkg-source -x "$dsc" "$tmp/src/qemu" >> "$buildlog" 2>&1 || failed "dpkg-source -x"

# 2. The recipe: the virt board and the PCI KCS interface (which selects IPMI, hence
# ipmi-bmc-extern). The dfsg tarball lacks the edk2 blobs: never unpack them (Debian's
# patches also skip pc-bios/ entirely; the upstream tarball would need this line).
cd "$tmp/src/qemu"
printf 'CONFIG_ARM_VIRT=y\nCONFIG_PCI_IPMI_KCS=y\n' >> configs/devices/aarch64-softmmu/default.mak
sed -i 's/^\( *unpack_edk2_blobs = \)bzip2.found()$/\1false/' meson.build
grep -q '^ *unpack_edk2_blobs = bzip2' meson.build && die "meson.build: edk2 line not patched"

# 3. Build. No slirp: the board runs with -nic none.
start=$(date +%s)
log CONFIG "aarch64-softmmu, fdt from the system, no docs, tools or blobs"
./configure --target-list=aarch64-softmmu --without-default-features --enable-fdt=system \
	--disable-docs --disable-tools --disable-werror --disable-install-blobs \
	>> "$buildlog" 2>&1 || failed "configure"
log BUILD "qemu-system-aarch64 ($(nproc) jobs, log in $buildlog)"
ninja -C build -j"$(nproc)" qemu-system-aarch64 >> "$buildlog" 2>&1 || failed "ninja"
end=$(date +%s)
log TIME "qemu build took $((end - start)) s"

# 4. Check the devices the board needs, then publish the entry by renaming it.
bin=$tmp/out/bin/qemu-system-aarch64
install -m 755 build/qemu-system-aarch64 "$bin"
devices=$("$bin" -device help)
for d in pci-ipmi-kcs ipmi-bmc-extern pc-dimm virtio-serial-pci virtconsole virtserialport; do
	echo "$devices" | grep -q "^name \"$d\"" || die "the built qemu has no $d device"
done
"$bin" -machine help | grep -q '^virt ' || die "the built qemu has no virt machine"
cd /
key=$cache/$version-$hash
mv "$tmp/out" "$key"
log QEMU "$key/bin/qemu-system-aarch64 (pci-ipmi-kcs, ipmi-bmc-extern)"
echo "$key/bin/qemu-system-aarch64"
