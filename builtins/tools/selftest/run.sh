#!/usr/bin/env bash
# Runtime self-tests of the builtins library: each <name>_test.cl (OpenCL C,
# compiled like user code) is linked with the library and <name>_test.c (a C
# reference checker) into a native executable and run.
# Usage: builtins/tools/selftest/run.sh [name...]   (default: all)
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/../../.." && pwd)
LLVM_BIN=${LLVM_BIN:-/usr/lib/llvm-19/bin}
CLANG=$LLVM_BIN/clang
RES_DIR=$($CLANG -print-resource-dir)
EXT=$("$ROOT/builtins/tools/cl_ext.sh")
FEATURE_DEFS=($("$ROOT/builtins/tools/cl_ext.sh" --feature-defines))
WORK=$(mktemp -d /tmp/fcl_selftest.XXXXXX)
trap 'rm -rf "$WORK"' EXIT

LIB_FLAGS=(-x cl -cl-std=CL3.0 -target x86_64-unknown-linux-gnu
  -Xclang -ffake-address-space-map -Xclang -finclude-default-header
  -cl-ext=$EXT "${FEATURE_DEFS[@]}" -O2 -fno-vectorize -fno-slp-vectorize -fno-unroll-loops
  -I"$ROOT/builtins/include" -I"$ROOT/builtins/lib" -Wno-unused-command-line-argument)
ls "$ROOT"/builtins/lib/*.cl | xargs -P "$(nproc)" -I{} sh -c \
  '"$0" "$@" -emit-llvm -c {} -o '"$WORK"'/$(basename {} .cl).bc' "$CLANG" "${LIB_FLAGS[@]}"
"$LLVM_BIN/llvm-link" "$WORK"/*.bc -o "$WORK/lib.bc"

USER_FLAGS=(-cc1 -triple x86_64-unknown-linux-gnu -ffake-address-space-map
  -finclude-default-header -fdeclare-opencl-builtins -cl-ext=$EXT "${FEATURE_DEFS[@]}"
  -resource-dir "$RES_DIR" -internal-isystem "$RES_DIR/include" -O2 -cl-std=CL3.0 -Wno-psabi -x cl)
names=("$@")
[ ${#names[@]} -gt 0 ] || names=($(cd "$HERE" && ls *_test.cl | sed 's/_test.cl$//'))
status=0
for n in "${names[@]}"; do
  "$CLANG" "${USER_FLAGS[@]}" -emit-llvm-bc "$HERE/${n}_test.cl" -o "$WORK/$n.bc"
  "$LLVM_BIN/llvm-link" "$WORK/$n.bc" --only-needed "$WORK/lib.bc" -o "$WORK/${n}_linked.bc"
  "$CLANG" -O2 -c "$WORK/${n}_linked.bc" -o "$WORK/$n.o" -Wno-override-module
  "$CLANG" -O1 -frounding-math -w -I"$ROOT/builtins/include" "$HERE/${n}_test.c" "$WORK/$n.o" -lm -o "$WORK/$n"
  "$WORK/$n" || status=1
done
exit $status
