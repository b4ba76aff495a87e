#!/usr/bin/env bash
# Builds FiberCL, fibercl_bench and fibercl_library_bench, then runs every benchmark on
# FiberCL and PoCL in one process and writes bench.json plus a markdown table of medians
# and ratios (results.md), then runs the library benchmarks (CLBlast, clFFT) and appends
# their table.
#
#   bench/run.sh [extra Google Benchmark flags, e.g. --benchmark_filter=sgemm]
#
# Environment: BUILD_DIR (default <repo>/build-bench), JOBS (default 2),
#              OUT_DIR (default $BUILD_DIR/bench-results),
#              LIBRARY_RUNS (timed runs of fibercl_library_bench, default 7).
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
BUILD_DIR=${BUILD_DIR:-$ROOT/build-bench}
JOBS=${JOBS:-2}
OUT_DIR=${OUT_DIR:-$BUILD_DIR/bench-results}
LIBRARY_RUNS=${LIBRARY_RUNS:-7}
source "$ROOT/bench/side_by_side.sh"
ensure_pocl
SUDO=""
[ "$(id -u)" -ne 0 ] && SUDO=sudo
if ! dpkg -s libclblast-dev libclfft-dev >/dev/null 2>&1; then
  echo "CLBlast or clFFT not installed; installing libclblast-dev libclfft-dev" >&2
  $SUDO apt-get install -y libclblast-dev libclfft-dev
fi

cmake -S "$ROOT" -B "$BUILD_DIR" -G Ninja -DCMAKE_BUILD_TYPE=Release
ninja -C "$BUILD_DIR" -j"$JOBS" libfibercl.so fibercl_bench fibercl_library_bench

make_vendors "$BUILD_DIR"

mkdir -p "$OUT_DIR"
OCL_ICD_VENDORS="$VENDORS" "$BUILD_DIR/bench/fibercl_bench" \
  --benchmark_repetitions=5 --benchmark_report_aggregates_only=true \
  --benchmark_out="$OUT_DIR/bench.json" --benchmark_out_format=json "$@"

python3 "$ROOT/bench/bench_to_markdown.py" "$OUT_DIR/bench.json" | tee "$OUT_DIR/results.md"

OCL_ICD_VENDORS="$VENDORS" "$BUILD_DIR/bench/fibercl_library_bench" "$LIBRARY_RUNS" \
  | tee -a "$OUT_DIR/results.md"
echo "Wrote $OUT_DIR/bench.json and $OUT_DIR/results.md" >&2
