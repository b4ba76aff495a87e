#!/usr/bin/env bash
# Occupancy bound search (Sorensen et al., OOPSLA 2016, section 2.3 and Table 3): an
# inter-work-group barrier across G groups, without discovery, needs all G occupant at
# once. Under FiberCL's occupancy bound N it must complete for every G <= N and be a
# reported deadlock for G = N + 1 -- in parallel mode and under seeds. The largest G
# that completes is the bound the program observes; this suite checks it equals N.
#
#   conformance/papers/occupancy_bound_search.sh BUILD_DIR [MAX_N]
set -uo pipefail
build=${1:?usage: occupancy_bound_search.sh BUILD_DIR [MAX_N]}
max=${2:-6}
tool="$build/fibercl"
app="$build/examples/inter_group"
export OCL_ICD_VENDORS=${OCL_ICD_VENDORS:-$build/fibercl.icd}
passed=0 failed=0

check() { # description, expected (complete|deadlock), command...
  local what=$1 want=$2
  shift 2
  local out
  out=$("$@" 2>&1)
  local got=complete
  grep -q "FiberCL: deadlock" <<<"$out" && got=deadlock
  if [[ $got == "$want" ]]; then
    passed=$((passed + 1))
  else
    failed=$((failed + 1))
    echo "FAIL: $what: expected $want, got $got"
    echo "$out" | sed 's/^/    /' | head -12
  fi
}

for n in $(seq 1 "$max"); do
  for mode in parallel seed; do
    opts=(--occupancy "$n" --deadlock-timeout 1)
    [[ $mode == seed ]] && opts+=(--seed "$((n * 7))")
    for g in $(seq 1 $((n + 1))); do
      want=complete
      ((g > n)) && want=deadlock
      check "N=$n G=$g $mode" "$want" "$tool" exec "${opts[@]}" -- "$app" barrier "$g"
    done
  done
done
echo "occupancy bound search: $passed passed, $failed failed"
((failed == 0))
