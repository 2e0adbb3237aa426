#!/usr/bin/env bash
# The test matrix: the full gate (scripts/test.sh) on every major reachable here, 13, 15, 16, 17 and 18 (14 has
# no source here). Builds or unpacks the missing servers first (scripts/pg.sh: about 5 minutes each to build 13,
# 17 and 18 once; 16 is unpacked from PyPI's pgserver wheel). Lanes: COMB_EXT_LANES (default 3) at once.
exec bash "$(dirname "$0")/test.sh" 13 15 16 17 18
