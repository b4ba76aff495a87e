#!/usr/bin/env bash
# The applications under every schedule the issue asks for: occupancy 1, 2, 4, 8 and
# unbounded, each in parallel mode and under seeds 1..SEEDS. The prim and coop forms
# must pass everywhere; the plain form (an all-groups barrier over the 8 launched
# groups) only where all 8 can be occupant. Prints one line per (bound, mode) with
# the failures, and "failures: N"; exits non-zero on any failure.
#
#   conformance/apps/run_apps.sh BUILD_DIR [SEEDS]
set -uo pipefail
build=${1:?usage: run_apps.sh BUILD_DIR [SEEDS]}
seeds=${2:-100}
apps=${APPS:-$build/conformance/apps/fibercl_apps}
kernels=${KERNELS:+--kernels $KERNELS} # another kernel directory (default: the source tree)
export OCL_ICD_VENDORS=${OCL_ICD_VENDORS:-$build/fibercl.icd}
unset FIBERCL_SEED FIBERCL_OCCUPANCY FIBERCL_SCHEDULE FIBERCL_ADMISSION
failures=0
run() { # bound seed(or "") form
  local out
  out=$(env FIBERCL_OCCUPANCY="$1" ${2:+FIBERCL_SEED=$2} timeout 600 "$apps" all "$3" --timeout 120 $kernels 2>&1)
  local bad
  bad=$(grep -v -E "^[a-z]+ [a-z]+ ok " <<<"$out" | grep -E " FAIL |^FiberCL" | head -3)
  if [[ -n $bad || $(grep -c -E " ok " <<<"$out") -ne 6 ]]; then
    echo "  FAIL bound=$1 seed=${2:-parallel} form=$3: ${bad:-$(tail -2 <<<"$out")}"
    failures=$((failures + 1))
  fi
}
for bound in 1 2 4 8 0; do
  forms="prim coop"
  [[ $bound == 0 || $bound -ge 8 ]] && forms="plain prim coop"
  start=$failures
  for form in $forms; do
    run "$bound" "" "$form"
    for seed in $(seq 1 "$seeds"); do run "$bound" "$seed" "$form"; done
  done
  echo "occupancy ${bound/#0/unbounded}: forms $forms, parallel + seeds 1..$seeds: $((failures - start)) failing runs"
done
echo "failures: $failures"
[[ $failures == 0 ]]
