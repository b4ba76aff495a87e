#!/usr/bin/env bash
# Builds FiberCL with a sanitizer in build-<kind>/ and runs the whole test suite there.
#   scripts/sanitize.sh ubsan    undefined behaviour (GCC's UBSan; the first report fails its test)
#   scripts/sanitize.sh asan     not yet: see below
#   scripts/sanitize.sh tsan     not yet: see below
# FIBERCL_JOBS sets the parallelism (default: the cores); extra arguments go to ctest
# (e.g. -L e2e).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
jobs="${FIBERCL_JOBS:-$(nproc)}"
kind="${1:-}"
shift || true

case "$kind" in
ubsan)
  # vptr needs the type information of LLVM's classes, which Debian's LLVM is built
  # without.
  flags="-fsanitize=undefined -fno-sanitize=vptr -fno-sanitize-recover=undefined -fno-omit-frame-pointer"
  export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1"
  ;;
asan | tsan)
  echo "scripts/sanitize.sh: $kind is NOT available yet. FiberCL switches stacks itself" \
       "(Boost.Context in runtime/exec/fibers.cpp, yield_launch.cpp, yield_point.cpp);" \
       "those switches need __sanitizer_start_switch_fiber / __tsan_switch_to_fiber" \
       "annotations before $kind can follow them (issue 14)." >&2
  exit 2
  ;;
*)
  echo "usage: scripts/sanitize.sh ubsan|asan|tsan [ctest arguments]" >&2
  exit 2
  ;;
esac

build="$root/build-$kind"
cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DCMAKE_C_FLAGS="$flags" -DCMAKE_CXX_FLAGS="$flags" \
  -DCMAKE_EXE_LINKER_FLAGS="$flags" -DCMAKE_SHARED_LINKER_FLAGS="$flags"
cmake --build "$build" -j "$jobs"
ctest --test-dir "$build" -j "$jobs" --timeout 900 --output-on-failure "$@"
