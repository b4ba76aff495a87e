#!/usr/bin/env bash
# Fuzzes the parsers that take untrusted input with libFuzzer (clang-19, with ASan and
# UBSan), each for a while: clCreateProgramWithBinary's decoder, the build-option
# parser and the printf format parser (fuzz/*.cpp). Seeds in fuzz/corpus/<target>/;
# what a run adds goes to build-fuzz/corpus/<target>/, crashes to build-fuzz/.
#   scripts/fuzz.sh [seconds per target, default 60] [target...]
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
seconds="${1:-60}"
shift || true
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=(binary_decoder build_options printf_spec)

command -v clang++-19 >/dev/null || apt-get install -y clang-19 >/dev/null
[ -e /usr/lib/llvm-19/lib/clang/19/lib/linux/libclang_rt.fuzzer-x86_64.a ] ||
  apt-get install -y libclang-rt-19-dev >/dev/null

out="$root/build-fuzz"
mkdir -p "$out"
declare -A sources=(
  [binary_decoder]="compiler/src/binary_format.cpp"
  [build_options]="compiler/src/build_options.cpp"
  [printf_spec]="runtime/exec/printf_spec.cpp"
)
status=0
for t in "${targets[@]}"; do
  src="${sources[$t]:?unknown target $t}"
  clang++-19 -std=c++17 -g -O1 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined \
    -I "$root" -I "$root/compiler/include" -I "$root/compiler/src" -I "$root/builtins/include" \
    -I /usr/lib/llvm-19/include \
    "$root/fuzz/$t.cpp" "$root/$src" -o "$out/$t"
  mkdir -p "$out/corpus/$t"
  echo "== $t: ${seconds} s"
  if ! (cd "$out" && "./$t" -max_total_time="$seconds" -print_final_stats=1 \
        "corpus/$t" "$root/fuzz/corpus/$t" 2>&1 | tail -12); then
    status=1
  fi
  if ls "$out"/crash-* "$out"/leak-* "$out"/timeout-* >/dev/null 2>&1; then
    echo "== $t: FINDINGS in $out (crash-*, leak-*, timeout-*)"
    status=1
  fi
done
exit $status
