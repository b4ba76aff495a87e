#!/usr/bin/env bash
# Fuzzes what FiberCL takes from untrusted input with libFuzzer (clang-19, with ASan and
# UBSan), each target for a while: clCreateProgramWithBinary's decoder, the build-option
# parser and the printf format parser (fuzz/*.cpp, each built from its one source), and
# OpenCL C sources through the whole build (opencl_source: clBuildProgram through the
# ICD loader into a libfibercl.so built for fuzzing in build-fuzz-src/, which takes a
# while the first time). Seeds in fuzz/corpus/<target>/ (and fuzz/<target>.dict if
# present); what a run adds goes to build-fuzz/corpus/<target>/, findings to build-fuzz/,
# the fuzzer's output to build-fuzz/<target>.log.
#   scripts/fuzz.sh [seconds per target, default 60] [target...]
# FIBERCL_JOBS sets the build's parallelism; FIBERCL_FUZZ_ARGS adds libFuzzer options.
# FUZZ_SEEDS=DIR... (space-separated) seeds opencl_source with the real-kernel corpus:
# folders of programs captured with FIBERCL_DUMP_SOURCES (scripts/capture_corpus.sh),
# searched recursively; each program becomes a seed "// options: <its options>" + its
# source in build-fuzz/seeds/opencl_source/, and inputs may then be as long as the
# longest of them (up to 256 KiB; without seeds: 8 KiB).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
seconds="${1:-60}"
shift || true
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=(binary_decoder build_options printf_spec opencl_source)

command -v clang++-19 >/dev/null || apt-get install -y clang-19 >/dev/null
[ -e /usr/lib/llvm-19/lib/clang/19/lib/linux/libclang_rt.fuzzer-x86_64.a ] ||
  apt-get install -y libclang-rt-19-dev >/dev/null

out="$root/build-fuzz"
mkdir -p "$out"
declare -A sources=(
  [binary_decoder]="compiler/src/binary_format.cpp"
  [build_options]="compiler/src/build_options.cpp"
  [printf_spec]="runtime/exec/printf_spec.cpp"
  [opencl_source]=""
)
# vptr checks need the type information of LLVM's classes, which Debian's LLVM is built
# without (as in scripts/sanitize.sh).
sanitize="-fsanitize=address,undefined -fno-sanitize=vptr -fno-sanitize-recover=undefined"

# libfibercl.so with FiberCL's own code (compiler, runtime, icd) instrumented for
# coverage and sanitized; Debian's libLLVM/libclang-cpp are used as they are. A shared
# library gets no sanitizer runtime of its own (the fuzzer executable has it and exports
# it), so the library's -Wl,--no-undefined is overridden by a -z undefs at the end of
# its link line.
build_fibercl_for_fuzzing() {
  local dir="$root/build-fuzz-src"
  local flags="-g $sanitize -fsanitize=fuzzer-no-link -fno-omit-frame-pointer"
  # The build runs FiberCL's builtins splitter, sanitized too: LLVM's exit-time
  # allocations are not leaks worth failing the build on.
  export ASAN_OPTIONS=detect_leaks=0
  cmake -S "$root" -B "$dir" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
    -DCMAKE_C_COMPILER=clang-19 -DCMAKE_CXX_COMPILER=clang++-19 \
    -DCMAKE_C_FLAGS="$flags" -DCMAKE_CXX_FLAGS="$flags" \
    -DCMAKE_EXE_LINKER_FLAGS="$sanitize" -DCMAKE_SHARED_LINKER_FLAGS="$sanitize" \
    -DCMAKE_CXX_STANDARD_LIBRARIES="-Wl,-z,undefs" \
    -DBUILD_TESTING=OFF -DFIBERCL_BUILD_BENCH=OFF >/dev/null
  # The library by its file: the target name `fibercl` is also the fibercl tool's file.
  cmake --build "$dir" --target libfibercl.so -j "${FIBERCL_JOBS:-$(nproc)}"
  unset ASAN_OPTIONS
  export OCL_ICD_VENDORS="$dir/fibercl.icd" # ocl-icd takes a file's path
}

# FUZZ_SEEDS' captured programs as opencl_source seeds; prints the seed folder. A
# program whose options name a folder (-I) keeps them: the folder is on this machine.
seed_opencl_source() {
  local dir="$out/seeds/opencl_source"
  rm -rf "$dir"
  mkdir -p "$dir"
  local cl n=0
  for cl in $(find ${FUZZ_SEEDS:-} -name '*.cl' 2>/dev/null); do
    [ -e "${cl%.cl}.compile" ] && continue # compiled to link apart: not a whole program
    { printf '// options: %s\n' "$(head -1 "${cl%.cl}.options" 2>/dev/null)"; cat "$cl"; } \
      >"$dir/$(basename "$cl")"
    n=$((n + 1))
  done
  [ -n "${FUZZ_SEEDS:-}" ] && echo "== opencl_source: $n seeds from $FUZZ_SEEDS" >&2
  echo "$dir"
}

status=0
for t in "${targets[@]}"; do
  [ -n "${sources[$t]+set}" ] || { echo "unknown target $t" >&2; exit 2; }
  run=(-max_total_time="$seconds" -print_final_stats=1)
  if [ "$t" = opencl_source ]; then
    build_fibercl_for_fuzzing
    clang++-19 -std=c++17 -g -O1 $sanitize -fsanitize=fuzzer \
      -DCL_TARGET_OPENCL_VERSION=300 -I "$root/include" -I "$root/cl_host/include" \
      "$root/fuzz/$t.cpp" "$root"/cl_host/src/*.cpp -lOpenCL -o "$out/$t"
    # A whole build (Clang, O3, JIT) takes 0.1-1 s of CPU. The harness fails a build
    # that takes more than FUZZ_CPU_SECONDS (30) of CPU time; the wall-clock -timeout
    # is only for builds that block (under nice on a busy machine a 1 s build can take
    # a minute). 4 GB is a finding too. Leak checks stay on: FiberCL's caches are
    # reachable, not leaked.
    seeds=$(seed_opencl_source)
    maxLen=$(find "$seeds" -type f -printf '%s\n' 2>/dev/null | sort -n | tail -1)
    maxLen=$((maxLen > 262144 ? 262144 : (maxLen > 8192 ? maxLen : 8192)))
    run+=(-timeout=900 -rss_limit_mb=4096 -max_len=$maxLen -dict="$root/fuzz/$t.dict")
  else
    clang++-19 -std=c++17 -g -O1 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined \
      -I "$root" -I "$root/compiler/include" -I "$root/compiler/src" -I "$root/builtins/include" \
      -I /usr/lib/llvm-19/include \
      "$root/fuzz/$t.cpp" "$root/${sources[$t]}" -o "$out/$t"
  fi
  mkdir -p "$out/corpus/$t"
  echo "== $t: ${seconds} s"
  # shellcheck disable=SC2086
  # The whole output goes to build-fuzz/<target>.log; shown: the last status line
  # (coverage, features, corpus), the final statistics and any error report.
  extra=()
  [ "$t" = opencl_source ] && [ -n "$(ls -A "$seeds")" ] && extra=("$seeds")
  if ! (cd "$out" && "./$t" "${run[@]}" ${FIBERCL_FUZZ_ARGS:-} \
        "corpus/$t" "$root/fuzz/corpus/$t" "${extra[@]}" >"$t.log" 2>&1); then
    status=1
  fi
  grep -E '^#[0-9]+' "$out/$t.log" | tail -1 || true
  grep -E '^stat::|ERROR|SUMMARY|property violated' "$out/$t.log" || true
  if ls "$out"/crash-* "$out"/leak-* "$out"/timeout-* "$out"/oom-* >/dev/null 2>&1; then
    echo "== $t: FINDINGS in $out (crash-*, leak-*, timeout-*, oom-*)"
    status=1
  fi
done
exit $status
