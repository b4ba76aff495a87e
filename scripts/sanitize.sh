#!/usr/bin/env bash
# Builds FiberCL with a sanitizer in build-<kind>/ and runs the whole test suite there.
#   scripts/sanitize.sh asan     addresses (GCC's ASan) and leaks (LSan, at each test's exit)
#   scripts/sanitize.sh ubsan    undefined behaviour (GCC's UBSan)
#   scripts/sanitize.sh tsan     data races (GCC's TSan)
#   scripts/sanitize.sh asan+ubsan  both in one build (what CI runs on the e2e suite)
# The first report fails its test. FiberCL's own fiber switches are annotated for ASan
# (runtime/exec/sanitizer_fibers.hpp, which also says why TSan needs no annotation). Processes the build did not make
# (ffmpeg, Python, the shell scripts' tools) load the sanitized library too, so the
# sanitizer's runtime is preloaded into every test process. Reports from code that is
# not FiberCL's (the loader, PoCL, LLVM) are suppressed by scripts/sanitizers/<kind>.supp,
# each entry with its reason.
# FIBERCL_JOBS sets the parallelism (default: the cores); FIBERCL_LEAKS=0 turns the
# leak checker off; extra arguments go to ctest (e.g. -L e2e).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
jobs="${FIBERCL_JOBS:-$(nproc)}"
kind="${1:-}"
shift || true
supp="$root/scripts/sanitizers"

asan_flags="-fsanitize=address -fno-omit-frame-pointer"
# vptr needs the type information of LLVM's classes, which Debian's LLVM is built without.
ubsan_flags="-fsanitize=undefined -fno-sanitize=vptr -fno-sanitize-recover=undefined -fno-omit-frame-pointer"
use_asan() {
  runtime="$(gcc -print-file-name=libasan.so)"
  # FiberCL's own SIGSEGV handler stays (faulting kernels are reported, not fatal). An
  # allocation that fails returns null, as the C library's does (the exhaustion tests
  # check that FiberCL turns it into an error code); ASan would abort the process.
  export ASAN_OPTIONS="allow_user_segv_handler=1:detect_leaks=${FIBERCL_LEAKS:-1}:abort_on_error=0:detect_odr_violation=0:allocator_may_return_null=1"
  export LSAN_OPTIONS="suppressions=$supp/lsan.supp:print_suppressions=0"
}
runtime=""
skip=""
export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1"
case "$kind" in
asan) flags="$asan_flags"; use_asan ;;
ubsan) flags="$ubsan_flags" ;;
asan+ubsan) flags="$asan_flags $ubsan_flags"; use_asan ;;
tsan)
  # No function entry/exit instrumentation: TSan's per-thread shadow call stack cannot
  # follow fibers and overflowed (runtime/exec/sanitizer_fibers.hpp). Accesses and
  # synchronisation are still all checked.
  flags="-fsanitize=thread --param=tsan-instrument-func-entry-exit=0"
  # Not preloaded: ctest's own children hang under a preloaded TSan. The test
  # executables link it; a program that is not ours cannot load the library, so the
  # ffmpeg test is left out (and said so below).
  export TSAN_OPTIONS="halt_on_error=1:second_deadlock_stack=1:allocator_may_return_null=1:suppressions=$supp/tsan.supp"
  skip="conformance.ffmpeg_opencl_filters"
  ;;
*)
  echo "usage: scripts/sanitize.sh asan|ubsan|tsan|asan+ubsan [ctest arguments]" >&2
  exit 2
  ;;
esac

build="$root/build-${kind/+/-}"
cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DCMAKE_C_FLAGS="$flags" -DCMAKE_CXX_FLAGS="$flags" \
  -DCMAKE_EXE_LINKER_FLAGS="$flags" -DCMAKE_SHARED_LINKER_FLAGS="$flags"
cmake --build "$build" -j "$jobs"
[ -z "$runtime" ] || export LD_PRELOAD="$runtime"
if [ -n "$skip" ]; then
  echo "scripts/sanitize.sh: NOT RUN under $kind: $skip (ffmpeg, not built with TSan, cannot load a TSan library)" >&2
  ctest --test-dir "$build" -j "$jobs" --timeout 1800 --output-on-failure -E "$skip" "$@"
else
  ctest --test-dir "$build" -j "$jobs" --timeout 1800 --output-on-failure "$@"
fi
