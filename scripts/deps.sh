#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Install the Debian packages listed in scripts/debian-packages.txt.
#
#   deps.sh install   install whatever is missing (apt-get update first)
#   deps.sh ensure    the same, but only when something is missing: cheap enough for
#                     every `make run` / `make test`
#   deps.sh check     list what is missing; exit 1 if anything is
set -eu

list=$(dirname "$0")/debian-packages.txt
packages=$(sed 's/#.*//' "$list" | tr -s ' \t' '\n\n' | grep -v '^$')

missing() {
	for p in $packages; do
		dpkg-query -W -f='${Status}\n' "$p" 2>/dev/null | grep -q '^install ok installed$' ||
			echo "$p"
	done
}

install() {
	if [ "$(id -u)" != 0 ]; then
		echo "deps.sh: installing packages needs root: $*" >&2
		exit 1
	fi
	echo "  DEPS     installing: $*"
	export DEBIAN_FRONTEND=noninteractive
	apt-get update -qq
	# shellcheck disable=SC2086
	apt-get install -y -qq --no-install-recommends "$@" >/dev/null
	left=$(missing)
	if [ -n "$left" ]; then
		echo "deps.sh: still missing after install: $left" >&2
		exit 1
	fi
	echo "  DEPS     all $(echo "$packages" | wc -l) packages installed"
}

case ${1:-} in
check)
	m=$(missing)
	[ -z "$m" ] && exit 0
	echo "missing: $m"
	exit 1
	;;
ensure)
	m=$(missing)
	[ -z "$m" ] || install $m
	;;
install)
	m=$(missing)
	if [ -z "$m" ]; then
		echo "  DEPS     all $(echo "$packages" | wc -l) packages already installed"
	else
		install $m
	fi
	;;
*)
	echo "usage: deps.sh install|ensure|check" >&2
	exit 2
	;;
esac
