#!/usr/bin/env bash
# Coverage check for the FiberCL builtins library (builtins/lib/*.cl).
#
# 1. Compiles every builtins/lib/*.cl exactly as builtins/CMakeLists.txt does
#    (and once more with -Xclang -cl-ext=..., the extension list clang actually
#    honours; the driver drops a bare -cl-ext for x86) and llvm-links them.
# 2. Lists every function opencl-c.h declares for OpenCL C 1.2, 2.0 and 3.0 under
#    FIBERCL_CL_EXT (with libclang, tools/fcl_decls.c), minus the families the
#    library deliberately does not provide (images, pipes, enqueue, sub-groups,
#    printf, ...; see EXCLUDE below).
# 3. Generates a probe kernel calling each of them, compiles it the way the
#    FiberCL front end compiles user code (-cc1 -fdeclare-opencl-builtins
#    -finclude-default-header), links it with the library and lists every call
#    still undefined (llvm-nm -u). Calls the table-generated declarations reject
#    are reported separately (user code cannot make them anyway).
#
# Needs clang-19, llvm-link/llvm-nm 19, python3, a C compiler and libclang-19's
# headers (/usr/lib/llvm-19/include/clang-c). Runtime tests of the library's
# results are in tools/selftest/run.sh.
#
# Usage: builtins/tools/check_coverage.sh [-k] [-q]
#   -k  keep the work directory (printed at the end)
#   -q  only print the summary
# Exit status 0 iff no call is left undefined for any version.
set -euo pipefail

ROOT=$(cd "$(dirname "$0")/../.." && pwd)
LLVM_BIN=${LLVM_BIN:-/usr/lib/llvm-19/bin}
CLANG=${CLANG:-$LLVM_BIN/clang}
RES_DIR=$($CLANG -print-resource-dir)
KEEP=0
QUIET=0
while getopts kq opt; do
  case $opt in k) KEEP=1 ;; q) QUIET=1 ;; *) exit 2 ;; esac
done

EXT=$("$ROOT/builtins/tools/cl_ext.sh")
# -D for each OpenCL C feature of the device (Clang 19 defines some only for SPIR
# targets): the library gets them, and so does user code for OpenCL C 3.0 (the front
# end's rule, which the probe follows).
FEATURE_DEFS=($("$ROOT/builtins/tools/cl_ext.sh" --feature-defines))
std_defs() { [ "$1" = CL3.0 ] && echo "${FEATURE_DEFS[@]}" || true; }

WORK=$(mktemp -d /tmp/fcl_cov.XXXXXX)
cleanup() { if [ $KEEP = 0 ]; then rm -rf "$WORK"; else echo "work dir: $WORK"; fi; }
trap cleanup EXIT
say() { [ $QUIET = 1 ] || echo "$@"; }

# --- 1. the library ---------------------------------------------------------
LIB_FLAGS=(-x cl -cl-std=CL3.0 -target x86_64-unknown-linux-gnu
  -Xclang -ffake-address-space-map -Xclang -finclude-default-header
  -cl-ext=$EXT "${FEATURE_DEFS[@]}" -O2 -fno-vectorize -fno-slp-vectorize -fno-unroll-loops
  -I"$ROOT/builtins/include" -I"$ROOT/builtins/lib" -Wno-unused-command-line-argument)
compile_lib() { # $1 = mode (cmake|ext), rest = sources
  local mode=$1; shift
  mkdir -p "$WORK/$mode"
  local extra=()
  [ "$mode" = ext ] && extra=(-Xclang -cl-ext=$EXT)
  printf '%s\n' "$@" | xargs -P "$(nproc)" -I{} sh -c \
    'f={}; b=$(basename $f .cl); "$0" "$@" -emit-llvm -c "$f" -o '"$WORK/$mode"'/$b.bc || echo "$f" >> '"$WORK/$mode"'/FAILED' \
    "$CLANG" "${LIB_FLAGS[@]}" "${extra[@]}"
  if [ -f "$WORK/$mode/FAILED" ]; then
    echo "FAILED to compile ($mode): $(cat "$WORK/$mode/FAILED")" >&2; exit 1
  fi
  "$LLVM_BIN/llvm-link" "$WORK/$mode"/*.bc -o "$WORK/lib_$mode.bc"
}
SOURCES=("$ROOT"/builtins/lib/*.cl)
start=$(date +%s.%N)
compile_lib cmake "${SOURCES[@]}"
end=$(date +%s.%N)
compile_lib ext "${SOURCES[@]}"
say "library: ${#SOURCES[@]} sources, $(stat -c %s "$WORK/lib_cmake.bc") bytes of bitcode," \
  "$("$LLVM_BIN/llvm-nm" --defined-only "$WORK/lib_cmake.bc" | grep -c ' T ') functions," \
  "compiled in $(awk -v a="$start" -v b="$end" 'BEGIN { printf "%.1f", b - a }') s (on $(nproc) cores)"

# --- 2. declarations --------------------------------------------------------
cc "$ROOT/builtins/tools/fcl_decls.c" -I"$LLVM_BIN/../include" -L"$LLVM_BIN/../lib" -lclang \
  -Wl,-rpath,"$LLVM_BIN/../lib" -o "$WORK/fcl_decls"
echo '#include <opencl-c.h>' > "$WORK/hdr.cl"

status=0
for STD in CL1.2 CL2.0 CL3.0; do
  "$WORK/fcl_decls" "$WORK/hdr.cl" clang -x cl -cl-std=$STD -target x86_64-unknown-linux-gnu \
    -Xclang -ffake-address-space-map -Xclang -cl-ext=$EXT $(std_defs $STD) 2>/dev/null \
    | sort -u > "$WORK/decls_$STD.txt"

  # --- 3. probe -------------------------------------------------------------
  python3 - "$WORK/decls_$STD.txt" "$WORK/probe_$STD.cl" <<'PY'
import re, sys
EXCLUDE = re.compile(r'^(read_image|write_image|get_image|read_pipe|write_pipe|reserve_|'
    r'commit_|work_group_reserve|work_group_commit|sub_group_|get_sub_group|'
    r'get_max_sub_group|get_num_sub_groups|get_enqueued_num_sub_groups|enqueue_|'
    r'get_kernel_|ndrange_|create_user_event|retain_event|release_event|'
    r'set_user_event_status|capture_event_profiling_info|is_valid_event|'
    r'get_default_queue|get_pipe_|is_valid_reserve_id|printf|'
    r'work_group_(all|any|broadcast|reduce|scan_))')
out = []
for i, line in enumerate(open(sys.argv[1])):
    f = line.rstrip('\n').split('\t')
    mangled, name, params = f[0], f[1], f[2:]
    if EXCLUDE.match(name) or not mangled.startswith('_Z'):
        continue
    args = []
    for t in params:
        t = re.sub(r'\s*\*\s*__private$', ' *', t)      # the parameter's own AS
        t = re.sub(r'^__private\s+(?!.*\*)', '', t)     # by-value parameters
        t = re.sub(r'_Atomic\((\w+)\)', r'atomic_\1', t)  # libclang spells atomic_int so
        args.append('(%s)0' % t)
    out.append('void p%d(void) { /* %s */ %s(%s); }' % (i, mangled, name, ', '.join(args)))
open(sys.argv[2], 'w').write('\n'.join(out) + '\n')
PY
  PROBE_FLAGS=(-cc1 -triple x86_64-unknown-linux-gnu -ffake-address-space-map
    -finclude-default-header -fdeclare-opencl-builtins -cl-ext=$EXT $(std_defs $STD)
    -resource-dir "$RES_DIR" -internal-isystem "$RES_DIR/include" -O0 -cl-std=$STD
    -Wno-everything -ferror-limit 0 -x cl)
  # Drop the calls the table-generated declarations reject, then compile.
  : > "$WORK/rejected_$STD.txt"
  for attempt in 1 2 3; do
    if "$CLANG" "${PROBE_FLAGS[@]}" -emit-llvm-bc "$WORK/probe_$STD.cl" -o "$WORK/probe_$STD.bc" \
        2> "$WORK/probe_$STD.err"; then break; fi
    grep -o "probe_$STD.cl:[0-9]*" "$WORK/probe_$STD.err" | cut -d: -f2 | sort -un > "$WORK/bad"
    [ -s "$WORK/bad" ] || { cat "$WORK/probe_$STD.err" >&2; exit 1; }
    awk 'NR==FNR{bad[$1]=1;next} (FNR in bad){print > "/dev/stderr"; next} {print}' \
      "$WORK/bad" "$WORK/probe_$STD.cl" > "$WORK/probe.tmp" 2>> "$WORK/rejected_$STD.txt"
    mv "$WORK/probe.tmp" "$WORK/probe_$STD.cl"
  done
  "$LLVM_BIN/llvm-link" "$WORK/probe_$STD.bc" "$WORK/lib_cmake.bc" -o "$WORK/linked_$STD.bc"
  "$LLVM_BIN/llvm-nm" -u "$WORK/linked_$STD.bc" | awk '{print $2}' | sort -u > "$WORK/undef_$STD.txt"
  "$LLVM_BIN/llvm-link" "$WORK/probe_$STD.bc" "$WORK/lib_ext.bc" -o "$WORK/linked_ext_$STD.bc"
  "$LLVM_BIN/llvm-nm" -u "$WORK/linked_ext_$STD.bc" | awk '{print $2}' | sort -u > "$WORK/undef_ext_$STD.txt"
  calls=$(grep -c '^void p' "$WORK/probe_$STD.cl")
  nund=$(grep -c '^_Z' "$WORK/undef_$STD.txt" || true)
  nund_ext=$(grep -c '^_Z' "$WORK/undef_ext_$STD.txt" || true)
  nrej=$(grep -c '^void p' "$WORK/rejected_$STD.txt" || true)
  echo "$STD: $calls builtin calls probed, $nund undefined (lib as built by CMake)," \
    "$nund_ext undefined (lib with -Xclang -cl-ext), $nrej declared by opencl-c.h but not by Clang's tables"
  if [ "$nund" != 0 ] || [ "$nund_ext" != 0 ]; then
    status=1
    [ $QUIET = 1 ] || sort -u "$WORK/undef_$STD.txt" "$WORK/undef_ext_$STD.txt" | grep '^_Z' \
      | "$LLVM_BIN/llvm-cxxfilt" | sed 's/^/    undefined: /' | head -${FCL_MAX_LIST:-40} || true
  fi
  [ $QUIET = 1 ] || [ "$nrej" = 0 ] || sed -n 's|.*/\* \(_Z[^ ]*\) \*/ \([a-z_0-9]*\)(.*|\2 \1|p' \
    "$WORK/rejected_$STD.txt" | awk '{print "    not in tables: " $1}' | sort | uniq -c | head -20 || true
  # Other undefined symbols (libm calls the JIT resolves from the process, markers).
  [ $QUIET = 1 ] || { grep -v '^_Z' "$WORK/undef_$STD.txt" | tr '\n' ' ' | sed 's/^/    other undefined (expected: markers, libm): /'; echo; }
done
# --- 4. C library calls the compiler's undefined-function check must accept -----
if command -v llvm-config-19 > /dev/null && c++ -std=c++17 "$ROOT/builtins/tools/fcl_libcalls.cpp" \
    $(llvm-config-19 --cxxflags --ldflags) -lLLVM-19 -o "$WORK/fcl_libcalls" 2> /dev/null; then
  "$WORK/fcl_libcalls" "$WORK/lib_cmake.bc" | sort > "$WORK/libcalls.txt"
  say "C library calls: $(awk '{print $2}' "$WORK/libcalls.txt" | tr '\n' ' ')"
  unknown=$(awk '$1 == "unknown" {print $2}' "$WORK/libcalls.txt" | tr '\n' ' ')
  [ -z "$unknown" ] || echo "note: not in LLVM's TargetLibraryInfo (the compiler's checkUndefined" \
    "must accept them; the JIT resolves them from libm): $unknown"
fi

if [ $status = 0 ]; then echo "coverage: OK"; else echo "coverage: FAILED (undefined builtins above)"; fi
exit $status
