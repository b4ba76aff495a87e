#!/usr/bin/env bash
# The physical-limits table (bench/RESULTS.md): builds FiberCL and fibercl_limits_bench,
# then runs every section side by side with PoCL -- native loops (memory bandwidth,
# FMA peak), streaming, compute, the barrier loop at every work-group size, and the
# blocking kernels with one worker and with every worker -- and prints the markdown.
#
#   bench/limits.sh [runs per figure, default 7] [sections, default all:
#                    stream compute barrier blocking]
#
# Environment: BUILD_DIR (default <repo>/build-bench), JOBS (default 2).
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
BUILD_DIR=${BUILD_DIR:-$ROOT/build-bench}
JOBS=${JOBS:-2}
RUNS=${1:-7}
SECTIONS=${2:-"stream compute barrier blocking"}
source "$ROOT/bench/side_by_side.sh"
ensure_pocl

cmake -S "$ROOT" -B "$BUILD_DIR" -G Ninja -DCMAKE_BUILD_TYPE=Release >/dev/null
ninja -C "$BUILD_DIR" -j"$JOBS" libfibercl.so fibercl_limits_bench >/dev/null

make_vendors "$BUILD_DIR"

BENCH="$BUILD_DIR/bench/fibercl_limits_bench"
echo "Host: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'), $(nproc) threads"
for section in $SECTIONS; do
  if [ "$section" = blocking ]; then
    FIBERCL_THREADS=1 OCL_ICD_VENDORS="$VENDORS" "$BENCH" "$RUNS" blocking | sed 1d
  fi
  OCL_ICD_VENDORS="$VENDORS" "$BENCH" "$RUNS" "$section" | sed 1d
done
