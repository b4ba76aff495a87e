#!/usr/bin/env bash
# Checked mode side by side with Oclgrind (issue 32): runs the corpus (corpus/*.cl, one
# bug each, marked "// BUG", and correct programs, through corpus_runner) under FiberCL
# (unchecked, and with FIBERCL_CHECK=all) and Oclgrind (Debian's `oclgrind`: default
# checks, and --data-races --uninitialized); writes $OUT/table.md, $OUT/bench.md and
# every run's output under $OUT/logs/. CHECKS.md has the results and the command.
#   conformance/checks/run_table.sh [table|bench|weak|all]      (default all)
# weak: the flag handshakes under FIBERCL_CHECK=weak, seeds 1..$WEAK_SEEDS (default 64), each
#   run's outcome in $OUT/weak.md: how many saw the flag and read stale data.
# Environment: FIBERCL_LIB (default build/libfibercl.so of this checkout), OUT (default
#   /tmp/fibercl-checks), REPS (runs per cell, default 3), BENCH_VECADD_N,
#   BENCH_REDUCTION_N, BENCH_STENCIL_N (elements of a grid 1024 wide).
set -u
here=$(cd "$(dirname "$0")" && pwd)
what=${1:-all}
FIBERCL_LIB=${FIBERCL_LIB:-$(cd "$here/../.." && pwd)/build/libfibercl.so}
REPS=${REPS:-3}
WEAK_SEEDS=${WEAK_SEEDS:-64}
BENCH_VECADD_N=${BENCH_VECADD_N:-$((1 << 22))}
BENCH_REDUCTION_N=${BENCH_REDUCTION_N:-$((1 << 20))}
BENCH_STENCIL_N=${BENCH_STENCIL_N:-$((1 << 20))} # a grid 1024 wide
out=${OUT:-/tmp/fibercl-checks}
vendors=$out/vendors_fibercl
logs=$out/logs
mkdir -p "$vendors" "$logs"
echo "$FIBERCL_LIB" > "$vendors/fibercl.icd"
if ! command -v oclgrind > /dev/null; then
  echo "oclgrind is not installed (apt-get install oclgrind): its columns would be empty" >&2
  exit 1
fi
runner=$out/corpus_runner
if [ ! -x "$runner" ] || [ "$here/corpus_runner.c" -nt "$runner" ]; then
  cc -O2 -Wall -DCORPUS_DIR="\"$here/corpus\"" -o "$runner" "$here/corpus_runner.c" -lOpenCL || exit 1
fi

configs=(fcl fclchk ocl oclp)
# The command line of configuration $1.
command_of() {
  case $1 in
    fcl) echo env -u FIBERCL_CHECK OCL_ICD_VENDORS=$vendors ;;
    fclchk) echo env OCL_ICD_VENDORS=$vendors FIBERCL_CHECK=all ;;
    ocl) echo env -u OCL_ICD_VENDORS -u FIBERCL_CHECK oclgrind ;;
    oclp) echo env -u OCL_ICD_VENDORS -u FIBERCL_CHECK oclgrind --data-races --uninitialized ;;
  esac
}

# run <log> <config> <args...>: one run under timeout 60, output (stdout+stderr) and
# "rc <exit code>" in <log>; prints the wall time in seconds.
run() {
  local log=$1 config=$2
  shift 2
  local t0 t1 rc
  t0=$(date +%s.%N)
  timeout 60 $(command_of "$config") "$runner" "$@" > "$log" 2>&1
  rc=$?
  t1=$(date +%s.%N)
  echo "rc $rc" >> "$log"
  echo "$t0 $t1" | awk '{ printf "%.2f\n", $2 - $1 }'
}

median() { sort -g | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }

# The kinds of report in a log, comma-separated ("" if none).
kinds() {
  local log=$1
  {
    grep -E '^FiberCL: kernel' "$log" | sed -E "s/^FiberCL: kernel '[^']*'//" |
      sed -E 's/^: out-of-bounds.*/OOB/; s/^: access not allowed.*/flags/;
              s/^: read of __local memory.*/uninit/; s/.*divergence.*/divergence/;
              s/^: warning: data race.*/race-warning/; s/^: data race.*/race/;
              s/.*crashed.*/crash/; s/.*(endless|stopped|hung).*/endless-loop/;
              /^(OOB|flags|uninit|divergence|race|race-warning|crash|endless-loop)$/!s/.*/other/'
    grep -E '^(Invalid (read|write) of size|Invalid write to read-only|Invalid read from write-only|Index \(|Uninitialized|Read-write data race|Write-write data race|Work-group divergence|Work-item divergence|OCLGRIND FATAL ERROR)' "$log" |
      sed -E 's/^Invalid (read|write) of size.*/OOB/; s/^Invalid (write to read-only|read from write-only).*/flags/;
              s/^Index \(.*/OOB-index/; s/^Uninitialized.*/uninit/; s/.*data race.*/race/;
              s/.*divergence.*/divergence/; s/^OCLGRIND FATAL ERROR.*/FATAL/'
  } | sort -u | paste -sd, -
}

# The source lines the reports of a log name (FiberCL "at <source>:N" and a race's "the
# other access: <source>:N", Oclgrind "At line N").
lines() {
  { grep -oE '(at|the other access:) <source>:[0-9]+' "$1" | grep -oE '[0-9]+$'
    grep -oE '^	At line [0-9]+' "$1" | grep -oE '[0-9]+$'; } | sort -nu | paste -sd, -
}

# One table cell group for a case and configuration: found, line, median time.
cell() {
  local case=$1 config=$2 expected=$3 i t times="" found=0 k="" rc
  for i in $(seq 1 "$REPS"); do
    t=$(run "$logs/$case.$config.$i" "$config" "$case")
    times="$times$t"$'\n'
    local ki
    ki=$(kinds "$logs/$case.$config.$i")
    [ -n "$ki" ] && found=$((found + 1)) && k=$ki
  done
  local log=$logs/$case.$config.1
  rc=$(awk '/^rc /{ print $2 }' "$log")
  local status
  status=$(awk '/^status /{ print $2 }' "$log")
  local f
  if [ "$rc" = 124 ]; then f="TIMEOUT"
  elif [ "$rc" -ge 128 ]; then f="CRASH (rc $rc${k:+; $k})"
  elif [ "$found" = 0 ]; then f="no"
  elif [ "$found" = "$REPS" ]; then f="yes: $k"
  else f="$found/$REPS: $k"; fi
  [ -n "$status" ] && [ "$status" != 0 ] && f="$f (status $status)"
  local l got
  got=$(lines "$log")
  if [ -z "$got" ]; then l="–"
  elif [ -n "$expected" ] && echo ",$got," | grep -qE ",($(echo "$expected" | tr , '|')),"; then l="✓ $got"
  else l="✗ $got"; fi
  echo "$f|$l|$(echo -n "$times" | median)"
}

if [ "$what" = table ] || [ "$what" = all ]; then
  {
    echo "| case | bug line(s) | FiberCL unchecked: report | line | time s | FiberCL checked: found | line | time s | Oclgrind: found | line | time s | Oclgrind --data-races --uninitialized: found | line | time s |"
    echo "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|"
    for f in "$here"/corpus/*.cl; do
      case=$(basename "$f" .cl)
      expected=$(grep -n '// BUG' "$f" | cut -d: -f1 | paste -sd, -)
      row="| $case | ${expected:-none}"
      for c in "${configs[@]}"; do
        IFS='|' read -r fo li ti <<< "$(cell "$case" "$c" "$expected")"
        row="$row | $fo | $li | $ti"
      done
      echo "$row |"
      echo "$row |" >&2
    done
  } > "$out/table.md"
fi

if [ "$what" = bench ] || [ "$what" = all ]; then
  {
    echo "| bench (elements) | configuration | kernel ms (profiling, median) | wall s (median) | runs |"
    echo "|---|---|---|---|---|"
    for b in "bench_vecadd $BENCH_VECADD_N" "bench_tree_reduction $BENCH_REDUCTION_N" \
      "bench_tile_stencil $BENCH_STENCIL_N"; do
      set -- $b
      for c in "${configs[@]}"; do
        walls="" kms="" ok=0
        for i in $(seq 1 "$REPS"); do
          walls="$walls$(run "$logs/$1.$c.$i" "$c" "$1" "$2")"$'\n'
          kms="$kms$(awk '/^kernel_ms /{ print $2 }' "$logs/$1.$c.$i")"$'\n'
          grep -q '^status 0$' "$logs/$1.$c.$i" && ok=$((ok + 1))
        done
        row="| $1 ($2) | $c | $(echo -n "$kms" | grep . | median) | $(echo -n "$walls" | median) | $ok/$REPS completed |"
        echo "$row"
        echo "$row" >&2
      done
    done
  } > "$out/bench.md"
fi

if [ "$what" = weak ] || [ "$what" = all ]; then
  {
    echo "| case | seeds | flag seen, data stale | flag seen, data right | flag not seen | other | first stale seed |"
    echo "|---|---|---|---|---|---|---|"
    for case in race_flag_handshake_plain race_relaxed_instead_of_release \
      race_wg_scope_atomic_across_groups correct_release_acquire_handshake; do
      stale=0 right=0 unseen=0 other=0 first=""
      for seed in $(seq 1 "$WEAK_SEEDS"); do
        log=$logs/weak.$case.$seed
        FIBERCL_SEED=$seed FIBERCL_OCCUPANCY=2 FIBERCL_CHECK=weak OCL_ICD_VENDORS=$vendors \
          timeout 60 "$runner" "$case" > "$log" 2>&1
        # "out <data read> <spins>": the reader gives up after 1000000 spins.
        read -r data spins <<< "$(awk '/^out /{ print $2, $3 }' "$log")"
        if [ -z "$data" ]; then other=$((other + 1))
        elif [ "$spins" -ge 1000000 ]; then unseen=$((unseen + 1))
        elif [ "$data" = 42 ]; then right=$((right + 1))
        else stale=$((stale + 1)); first=${first:-$seed}; fi
      done
      row="| $case | 1..$WEAK_SEEDS | $stale | $right | $unseen | $other | ${first:-–} |"
      echo "$row"
      echo "$row" >&2
    done
  } > "$out/weak.md"
fi
