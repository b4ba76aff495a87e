#!/usr/bin/env bash
# Soak (issue 28): runs the test suite again and again under load, to find the rare
# hangs and failures one run does not show, and keeps the evidence. Each round runs
# the selected CTest cases with ctest -j JOBS, alternating the barrier path
# (FIBERCL_BARRIERS unset / fibers) and, with SEEDED=1, the scheduling mode (default /
# FIBERCL_SEED=N, a new seed every other round: meant for the scheduling suites, since
# tests that assume several workers are not written for a seed from outside), with
# LOAD busy processes competing for the cores. A
# watchdog looks at every test process; one that has run longer than HANG seconds gets
# every thread's backtrace saved by gdb (before CTest's own time-out kills it).
#
#   scripts/soak.sh [MINUTES] [CTEST_REGEX]        (default: 60 minutes, every test)
#
# Environment: FIBERCL_BUILD_DIR (build/), SOAK_DIR (soak-<date>/: logs, backtraces),
# JOBS (2), LOAD (1), HANG (120 s; CTest's time-out is HANG + 60).
# Prints one line per round and a summary; exit status 0 iff no round failed.
set -uo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="${FIBERCL_BUILD_DIR:-$root/build}"
minutes=${1:-60}
regex=${2:-.}
jobs=${JOBS:-2}
load=${LOAD:-1}
hang=${HANG:-120}
out=${SOAK_DIR:-$root/soak-$(date +%Y%m%d-%H%M%S)}
mkdir -p "$out"
command -v gdb >/dev/null || echo "soak.sh: no gdb: hangs are reported without backtraces" >&2

pids=()
cleanup() {
  for p in "${pids[@]}"; do kill "$p" 2>/dev/null; done
}
trap cleanup EXIT

# Competing load: busy loops at the lowest priority the scheduler still runs.
for ((i = 0; i < load; ++i)); do
  (exec nice -n 10 sh -c 'while :; do :; done') &
  pids+=($!)
done

# The watchdog: test processes (children of ctest) older than $hang seconds get their
# backtraces saved once.
watch_tests() {
  declare -A seen
  while :; do
    # This soak's CTest only (not another build's, on a shared machine).
    ctests=$(pgrep -d, -f "^ctest --test-dir $build ") || { sleep 5; continue; }
    for pid in $(pgrep -P "$ctests"); do
      age=$(ps -o etimes= -p "$pid" 2>/dev/null | tr -d ' ')
      [[ -n $age && $age -ge $hang && -z ${seen[$pid]:-} ]] || continue
      seen[$pid]=1
      # The test binary is the child of CTest's process (or the process itself).
      for target in "$pid" $(pgrep -P "$pid"); do
        file="$out/hang-$(date +%H%M%S)-$target.txt"
        { ps -o pid,etimes,args -p "$target"; echo; tr '\0' '\n' </proc/"$target"/environ 2>/dev/null | grep '^FIBERCL_'
          echo; gdb -p "$target" -batch -ex "set pagination off" -ex "thread apply all bt" 2>&1; } >"$file"
        echo "  hang: pid $target after ${age}s, backtraces in $file"
      done
    done
    sleep 5
  done
}
watch_tests &
pids+=($!)

end=$(($(date +%s) + minutes * 60))
round=0 failedRounds=0
while (($(date +%s) < end)); do
  round=$((round + 1))
  barriers=$([[ $((round % 2)) == 0 ]] && echo fibers || echo "")
  seed=$([[ ${SEEDED:-0} == 1 && $((round % 4)) -ge 2 ]] && echo "$round" || echo "")
  log="$out/round-$round.log"
  start=$(date +%s)
  (
    [[ -n $barriers ]] && export FIBERCL_BARRIERS=$barriers
    [[ -n $seed ]] && export FIBERCL_SEED=$seed
    ctest --test-dir "$build" -j "$jobs" --timeout $((hang + 60)) -R "$regex" >"$log" 2>&1
  )
  status=$?
  summary=$(grep -E "tests passed|tests failed" "$log" | tail -1)
  printf 'round %d (barriers=%s, seed=%s): %s in %ds\n' "$round" "${barriers:-regions}" \
    "${seed:-none}" "${summary:-no summary}" $(($(date +%s) - start))
  if ((status != 0)); then
    failedRounds=$((failedRounds + 1))
    grep -E "\((Failed|Timeout|SEGFAULT|Subprocess aborted|Child aborted)\)" "$log" | sed 's/^/  /'
  fi
done
hangs=$(ls "$out"/hang-*.txt 2>/dev/null | wc -l)
echo "soak: $round rounds in $minutes min, $failedRounds with failures, $hangs hang backtraces (in $out)"
((failedRounds == 0))
