#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# On a private BMC whose DIMM names have the longest length the configuration allows
# (16): Get Domain Info (0x30 0x41) answers within the 36 bytes ipmi_sim gives a
# command's answer (its smi_send() buffer), the name cut to what fits, and the BMC
# keeps running.
. "$(dirname "$0")/lib/bmc.sh"
own_bmc_setup
bmc_ranks_sed='s/dimm=DIMM0 /dimm=DIMM0-ABCDEFGHIJ /'
own_bmc_start
grep -q 'dimm=DIMM0-ABCDEFGHIJ ' "$out/bmc/ranks.conf" || fail "the DIMM name was not set"
set -- $(oem user 0x41 0 0)
echo "Get Domain Info rank 0: $*"
# the answer with its completion code
[ $(($# + 1)) -le 36 ] || fail "the answer has $(($# + 1)) bytes, more than ipmi_sim's 36"
expect "name length byte and name" "${*:21}" "$(printf '%02x' $(($# - 21))) $(printf 'DIMM0-ABCDEFGHIJ' | head -c $(($# - 21)) | od -An -tx1 | xargs)"
kill -0 "$bmc_pid" || fail "ipmi_sim died"
