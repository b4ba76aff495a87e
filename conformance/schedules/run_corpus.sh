#!/usr/bin/env bash
# The whole schedule corpus matrix: every correct program x seeds 1..SEEDS x
# occupancy {1,2,4,8,unbounded} (where it makes sense at that bound), plus a few
# parallel-mode runs each, must complete with right results and no deadlock
# report; every buggy program must be reported (or its wrong result seen). Prints
# a table and "false reports: X" (deadlock reports on correct programs); exits
# non-zero on any failure.
#
#   conformance/schedules/run_corpus.sh BUILD_DIR [SEEDS]
#
# BUILD_DIR holds fibercl.icd and conformance/schedules/schedule_corpus (or set
# SCHEDULE_CORPUS=/path/to/schedule_corpus). Environment knobs:
#   PARALLEL      parallel-mode repetitions per configuration (default 3)
#   BUG_PARALLEL  the same for the buggy programs (default 2; each waits out the
#                 2 s deadlock timeout)
#   BOUNDS        occupancy bounds, spaces or commas, 0 = unbounded ("1 2 4 8 0")
#   ONLY          a regular expression on program names
#   ITERS         per-program sizes instead of the defaults, "PROGRAM=N,..."
#                 (--iters; the CTest subset uses it to keep label_prop short)
#   STRICT_MET=1  also require every litmus iteration to meet in seeded mode (a
#                 later requirement)
set -uo pipefail
build=${1:?usage: run_corpus.sh BUILD_DIR [SEEDS]}
seeds=${2:-200}
parallel=${PARALLEL:-3}
bug_parallel=${BUG_PARALLEL:-2}
bounds=${BOUNDS:-"1 2 4 8 0"}
bounds=${bounds//,/ }
only=${ONLY:-.}
declare -A iters=()
iters_list=${ITERS:-}
for kv in ${iters_list//,/ }; do
  iters[${kv%%=*}]=${kv#*=}
done
corpus=${SCHEDULE_CORPUS:-$build/conformance/schedules/schedule_corpus}
export OCL_ICD_VENDORS=${OCL_ICD_VENDORS:-$build/fibercl.icd}
unset FIBERCL_SEED FIBERCL_OCCUPANCY FIBERCL_SCHEDULE FIBERCL_ADMISSION
[[ -x $corpus ]] || { echo "run_corpus.sh: no executable $corpus" >&2; exit 2; }

false_reports=0 failures=0 rows=0
row_format='| %-22s | %-6s | %-9s | %-14s | %4s | %4s | %5s | %8s | %6s | %-16s | %-4s |\n'
table=$(mktemp)
trap 'rm -f "$table"' EXIT

# run CLASS(correct|buggy) ARGS...: one schedule_corpus invocation; each RESULT
# line becomes a table row.
run() {
  local class=$1
  shift
  [[ $1 =~ $only ]] || return 0
  local size=()
  [[ -n ${iters[$1]:-} ]] && size=(--iters "${iters[$1]}")
  local out status
  out=$("$corpus" run "$@" "${size[@]}" --quiet 2>&1)
  status=$?
  local results
  results=$(grep '^RESULT' <<<"$out")
  if [[ -z $results ]]; then
    failures=$((failures + 1))
    echo "ERROR: schedule_corpus run $* (exit $status):"
    sed 's/^/    /' <<<"$out" | head -20
    return
  fi
  local line kv
  while IFS= read -r line; do
    local -A f=()
    for kv in $line; do # KEY=VALUE words of the RESULT line
      [[ $kv == *=* ]] && f[${kv%%=*}]=${kv#*=}
    done
    local mode=${f[mode]}
    [[ ${f[policy]} == unfair ]] && mode="$mode,unfair"
    local extra="${f[found]:-}${f[met]:-}"
    printf "$row_format" \
      "${f[program]}" "${f[lock]:--}" "${f[occupancy]}" "$mode" "${f[runs]}" \
      "${f[ok]}" "${f[wrong]}" "${f[deadlock]}" "${f[failed]}" "${extra:--}" \
      "${f[verdict]}" >>"$table"
    rows=$((rows + 1))
    [[ $class == correct ]] && false_reports=$((false_reports + f[deadlock]))
    if [[ ${f[verdict]} != PASS ]]; then
      failures=$((failures + 1))
      echo "FAIL: schedule_corpus run $*"
      grep -A16 '^  first unexpected' <<<"$out" | sed 's/^/    /'
    fi
  done <<<"$results"
}

# Correct programs, at every bound.
for n in $bounds; do
  both=(--seeds "1..$seeds" --parallel "$parallel")
  for lock in ticket spin; do
    run correct discovery_xf --lock $lock --occupancy "$n" "${both[@]}"
    run correct bfs --lock $lock --occupancy "$n" "${both[@]}"
  done
  # Fixed-size sets launched with G = N (8 when unbounded).
  run correct counter_barrier --occupancy "$n" "${both[@]}"
  run correct delay_rendezvous --occupancy "$n" "${both[@]}"
  # Waiting loops that mostly read (issue 27): scan_lookback has dynamic tile
  # ids (1024 groups at any bound), the others launch G = N (8 when unbounded).
  for p in scan_lookback bfs_sweep label_prop label_inplace ring_queue status_poll; do
    run correct $p --occupancy "$n" "${both[@]}"
  done
  # Correct with any number of groups at any bound.
  for p in lone_last mutex_spin mutex_backoff mutex_ticket sem_spin sem_ticket; do
    run correct $p --occupancy "$n" "${both[@]}"
  done
  # Pairs: bounded polls, so they complete even at occupancy 1 (never meeting
  # there); from 2 up, the handshake must meet in >= 90% of seeds.
  met=()
  ((n != 1)) && met=(--min-met 90)
  run correct handshake --occupancy "$n" --seeds "1..$seeds" "${met[@]}"
  run correct handshake --occupancy "$n" --parallel "$parallel"
  strict=()
  [[ ${STRICT_MET:-0} == 1 && $n != 1 ]] && strict=(--min-met 100)
  for p in litmus_mp litmus_sb litmus_lb litmus_corr; do
    run correct $p --occupancy "$n" --seeds "1..$seeds" "${strict[@]}"
    run correct $p --occupancy "$n" --parallel "$parallel"
  done
done

# Buggy programs.
bug_seeds=$((seeds < 100 ? seeds : 100))
for n in 1 2 4 8; do
  run buggy bug_over_bound --occupancy $n --seeds "1..$bug_seeds"
  FIBERCL_DEADLOCK_TIMEOUT=2 \
    run buggy bug_over_bound --occupancy $n --parallel "$bug_parallel"
done
for n in 1 2 4; do
  run buggy bug_never_admitted --occupancy $n --seeds "1..$bug_seeds"
  FIBERCL_DEADLOCK_TIMEOUT=2 \
    run buggy bug_never_admitted --occupancy $n --parallel "$bug_parallel"
done
# Seeded only: in parallel mode whether the spinner starves depends on which group
# the workers start first.
run buggy bug_unfair_starvation --occupancy 2 --seeds "1..$bug_seeds"
# Seeded only: parallel mode rarely interleaves the load and the store.
run buggy bug_lost_update --seeds "1..$bug_seeds"
run buggy bug_lost_update --occupancy 2 --seeds "1..$bug_seeds"

echo
printf "$row_format" \
  program lock occupancy mode runs ok wrong deadlock failed found/met verdict
echo "|---|---|---|---|---|---|---|---|---|---|---|"
cat "$table"
echo
echo "rows: $rows, failing rows: $failures"
echo "false reports: $false_reports"
((failures == 0 && false_reports == 0))
