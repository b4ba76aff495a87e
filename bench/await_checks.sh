#!/usr/bin/env bash
# The cost of the failed-await checks (issue 27) in parallel mode, where they stay off
# until no group has made progress for a while: kernels whose waiting loops mostly
# read, from the schedule corpus, run by two builds of FiberCL side by side.
#
#   bench/await_checks.sh BEFORE.icd AFTER.icd [PROGRAM...]
#
# Per program and build: instructions per launch (callgrind: the difference between
# 5 launches and 1, over 4, so compilation and set-up cancel; repeatable on a shared
# machine) and the median wall time of 11 parallel-mode launches on one worker.
# Needs valgrind and build/conformance/schedules/schedule_corpus (SCHEDULE_CORPUS).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
corpus=${SCHEDULE_CORPUS:-$root/build/conformance/schedules/schedule_corpus}
before=${1:?usage: await_checks.sh BEFORE.icd AFTER.icd [PROGRAM...]}
after=${2:?usage: await_checks.sh BEFORE.icd AFTER.icd [PROGRAM...]}
shift 2
programs=("$@")
((${#programs[@]})) || programs=(bfs_sweep status_poll label_inplace scan_lookback)
out=$(mktemp)
trap 'rm -f "$out"' EXIT

# Instructions callgrind counts for `runs` parallel-mode launches of a program.
instructions() { # ICD PROGRAM RUNS
  OCL_ICD_VENDORS=$1 FIBERCL_THREADS=1 valgrind --tool=callgrind --callgrind-out-file="$out" \
    "$corpus" run "$2" --parallel "$3" --occupancy 0 2>&1 |
    sed -n 's/.*Collected : \([0-9]*\).*/\1/p'
}
median_ms() { # ICD PROGRAM
  OCL_ICD_VENDORS=$1 FIBERCL_THREADS=1 "$corpus" run "$2" --parallel 11 --occupancy 0 2>&1 |
    grep -o '([0-9.]* ms)' | tr -d '()ms ' | sort -n | sed -n 6p
}

printf '| program | instructions per launch, before | after | after / before | median ms, before | after |\n'
printf '|---|---|---|---|---|---|\n'
for p in "${programs[@]}"; do
  instructions "$before" "$p" 1 >/dev/null # warm the kernel cache
  instructions "$after" "$p" 1 >/dev/null
  b=$((($(instructions "$before" "$p" 5) - $(instructions "$before" "$p" 1)) / 4))
  a=$((($(instructions "$after" "$p" 5) - $(instructions "$after" "$p" 1)) / 4))
  printf '| %s | %d | %d | %.2fx | %s | %s |\n' "$p" "$b" "$a" "$(echo "$a / $b" | bc -l)" \
    "$(median_ms "$before" "$p")" "$(median_ms "$after" "$p")"
done
