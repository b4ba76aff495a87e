#!/usr/bin/env bash
# Issue 27: the cooperative kernels' invariants under 200 seeds (default) at occupancy
# bounds 1..8 and in parallel mode (20 runs per bound, or $FIBERCL_COOP_PARALLEL): the
# full version of CooperativeSeeds.*, which CTest runs with 50 seeds and 5 parallel runs.
# Usage: scripts/cooperative_seeds.sh [seeds | first..last] [first..last bound]
# Needs a build of libfibercl.so and e2e_tests ($FIBERCL_BUILD_DIR, default build/).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="${FIBERCL_BUILD_DIR:-$root/build}"
seeds="${1:-200}"
bounds="${2:-1..8}"
export OCL_ICD_VENDORS="$build/fibercl.icd"
export FIBERCL_COOP_SEEDS="$seeds" FIBERCL_COOP_BOUNDS="$bounds"
export FIBERCL_COOP_PARALLEL="${FIBERCL_COOP_PARALLEL:-20}"
start=$(date +%s.%N)
status=0
"$build/tests/e2e/e2e_tests" --gtest_filter='CooperativeSeeds.*' || status=$?
end=$(date +%s.%N)
printf 'seeds %s x bounds %s, and %s parallel runs per bound: %s in %.1f s\n' "$seeds" \
  "$bounds" "$FIBERCL_COOP_PARALLEL" "$([ $status -eq 0 ] && echo 'no violation' || echo FAILED)" "$(echo "$end - $start" | bc)"
exit $status
