#!/usr/bin/env bash
# Builds a subset of the Khronos OpenCL-CTS against the system ICD loader (ocl-icd) and
# runs it against FiberCL through OCL_ICD_VENDORS. The CTS is an external program: this
# script only drives its CMake build and its test binaries; none of its code is copied.
#
#   conformance/cts/run_subset.sh <cts-checkout> [options]
#
#   --icd FILE          FiberCL's ICD file (default: <repo>/build/fibercl.icd)
#   --build-dir DIR     CTS build directory (default: <cts-checkout>/build-fibercl)
#   --headers DIR       an OpenCL-Headers checkout (holding CL/cl.h) to build the CTS
#                       against (default: /usr/include, Debian's opencl-headers, which
#                       is older than the CTS's main branch expects -- see CTS.md)
#   --spirv-headers DIR a SPIRV-Headers root holding include/spirv (default: /usr, from
#                       Debian's spirv-headers, which is too old for the CTS's main
#                       branch: spirv_new needs a KhronosGroup/SPIRV-Headers checkout;
#                       no suite of the default subset uses it)
#   --suites "a b c"    suites to run, by CTS directory name (default: all of the subset
#                       below); "test_" prefixes are accepted, and "bruteforce" /
#                       "test_math_brute_force" mean math_brute_force
#   --args SUITE=ARGS   arguments for one suite's binary, replacing its default (which
#                       is "-w" for math_brute_force, conversions and integer_ops, nothing
#                       otherwise);
#                       ARGS may name sub-tests, e.g. --args "basic=hiloeo vload_global"
#                       (repeatable)
#   --timeout MIN       time limit of each suite (default 15)
#   --long-timeout MIN  time limit of math_brute_force and conversions (default 40)
#   --results DIR       where logs and summary.md go (default: <build-dir>/results/<date>)
#   --jobs N            build parallelism (default 2)
#   --no-build          do not configure or build (binaries must exist)
#   --no-deps           do not check / install the Debian packages below
#
# Every suite's full output is kept in <results>/<suite>.log, the CTS's own per-test
# verdicts in <results>/<suite>.json (CL_CONFORMANCE_RESULTS_FILENAME), and the table
# is printed and written to <results>/summary.md. Exit status: 0 when every suite ran
# to completion with no failure, 1 otherwise.
#
# Debian 12 packages the CTS build and this script need (installed when missing):
#   build-essential cmake ninja-build ccache git python3 coreutils
#   ocl-icd-opencl-dev ocl-icd-libopencl1 opencl-headers spirv-headers clinfo
set -euo pipefail

PACKAGES=(build-essential cmake ninja-build ccache git python3 coreutils
  ocl-icd-opencl-dev ocl-icd-libopencl1 opencl-headers spirv-headers clinfo)

DEFAULT_SUITES="math_brute_force conversions integer_ops commonfns geometrics relationals
  atomics c11_atomics printf vectors basic workgroups"
LONG_SUITES=" math_brute_force conversions "

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"

usage() {
  sed -n '2,/^set -euo/p' "${BASH_SOURCE[0]}" | sed '$d; s/^# \{0,1\}//'
  exit "${1:-2}"
}

# ---------------------------------------------------------------- arguments
(($# >= 1)) || usage
[[ $1 == -h || $1 == --help ]] && usage 0
cts="$(cd "$1" && pwd)"
shift
icd="$root/build/fibercl.icd"
build=""
headers=/usr/include
spirv_headers=/usr
suites="$DEFAULT_SUITES"
timeout_min=15
long_timeout_min=40
results=""
jobs=2
do_build=1
do_deps=1
declare -A suite_args=()

while (($#)); do
  case $1 in
    --icd) icd=$2; shift 2 ;;
    --build-dir) build=$2; shift 2 ;;
    --headers) headers=$2; shift 2 ;;
    --spirv-headers) spirv_headers=$2; shift 2 ;;
    --suites) suites=$2; shift 2 ;;
    --args) suite_args[${2%%=*}]=${2#*=}; shift 2 ;;
    --timeout) timeout_min=$2; shift 2 ;;
    --long-timeout) long_timeout_min=$2; shift 2 ;;
    --results) results=$2; shift 2 ;;
    --jobs) jobs=$2; shift 2 ;;
    --no-build) do_build=0; shift ;;
    --no-deps) do_deps=0; shift ;;
    -h | --help) usage 0 ;;
    *) echo "run_subset.sh: unknown option '$1'" >&2; usage ;;
  esac
done

[[ -f $cts/CMakeLists.txt && -d $cts/test_conformance ]] \
  || { echo "run_subset.sh: $cts is not an OpenCL-CTS checkout" >&2; exit 2; }
[[ -f $icd ]] || { echo "run_subset.sh: no ICD file $icd (build FiberCL first)" >&2; exit 2; }
icd="$(cd "$(dirname "$icd")" && pwd)/$(basename "$icd")"
[[ -f $headers/CL/cl.h ]] || { echo "run_subset.sh: no CL/cl.h under $headers" >&2; exit 2; }
headers="$(cd "$headers" && pwd)"
build="${build:-$cts/build-fibercl}"
mkdir -p "$build"
build="$(cd "$build" && pwd)"
results="${results:-$build/results/$(date +%Y%m%d-%H%M%S)}"
mkdir -p "$results"
results="$(cd "$results" && pwd)"

# Suite name (CTS directory) -> CMake target, which is also the binary's name.
normalise() {
  local s=${1#test_}
  case $s in
    bruteforce | math_brute_force) echo math_brute_force ;;
    *) echo "$s" ;;
  esac
}
target_of() {
  case $1 in
    math_brute_force) echo test_bruteforce ;;
    *) echo "test_$1" ;;
  esac
}
default_args_of() {
  case $1 in
    # -w: wimpy mode, fewer inputs (integer_ops: skips its 1M-element long_* tests,
    # which spend their time generating and checking data on the host).
    math_brute_force | conversions | integer_ops) echo "-w" ;;
    *) echo "" ;;
  esac
}

suite_list=()
for s in $suites; do
  s=$(normalise "$s")
  [[ -d $cts/test_conformance/$s ]] \
    || { echo "run_subset.sh: no suite '$s' in $cts/test_conformance" >&2; exit 2; }
  suite_list+=("$s")
done
declare -A args_of=()
for s in "${suite_list[@]}"; do args_of[$s]=$(default_args_of "$s"); done
for k in "${!suite_args[@]}"; do args_of[$(normalise "$k")]=${suite_args[$k]}; done

# ---------------------------------------------------------------- packages
if ((do_deps)); then
  missing=()
  for p in "${PACKAGES[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" \
      || missing+=("$p")
  done
  if ((${#missing[@]})); then
    SUDO=""
    [[ $(id -u) -ne 0 ]] && SUDO="sudo"
    $SUDO apt-get update -q
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -q --no-install-recommends \
      "${missing[@]}"
  fi
fi

# ---------------------------------------------------------------- build
# ocl-icd-opencl-dev's libOpenCL.so: the CTS links the ICD loader, not FiberCL.
libdir=/usr/lib/$(gcc -dumpmachine)
[[ -e $libdir/libOpenCL.so ]] || { echo "run_subset.sh: no $libdir/libOpenCL.so" >&2; exit 1; }

build_secs=0
if ((do_build)); then
  targets=()
  for s in "${suite_list[@]}"; do targets+=("$(target_of "$s")"); done
  echo "== configuring the CTS in $build (headers: $headers, loader: $libdir)"
  start=$(date +%s)
  cmake -S "$cts" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release \
    -DCL_INCLUDE_DIR="$headers" -DCL_LIB_DIR="$libdir" -DOPENCL_LIBRARIES=OpenCL \
    -DSPIRV_INCLUDE_DIR="$spirv_headers" \
    -DCMAKE_C_COMPILER_LAUNCHER=ccache -DCMAKE_CXX_COMPILER_LAUNCHER=ccache \
    >"$results/cts-configure.log" 2>&1 \
    || { tail -30 "$results/cts-configure.log"; echo "run_subset.sh: CTS configure failed" >&2; exit 1; }
  echo "== building ${targets[*]} (-j$jobs)"
  ninja -C "$build" -j "$jobs" "${targets[@]}" >"$results/cts-build.log" 2>&1 \
    || { grep -m20 -A5 "error" "$results/cts-build.log" || tail -40 "$results/cts-build.log"
         echo "run_subset.sh: CTS build failed (log: $results/cts-build.log)" >&2; exit 1; }
  build_secs=$(($(date +%s) - start))
  echo "== CTS built in ${build_secs}s"
fi

# ---------------------------------------------------------------- platform check
export OCL_ICD_VENDORS="$icd"
# FiberCL's build cache for the (many) CTS kernels stays beside the results.
export FIBERCL_CACHE_DIR="${FIBERCL_CACHE_DIR:-$build/fibercl-cache}"
platforms=$(clinfo -l 2>&1 | grep -c "^Platform #" || true)
if [[ $platforms != 1 ]] || ! clinfo -l 2>&1 | grep -q "FiberCL"; then
  clinfo -l >&2 || true
  echo "run_subset.sh: OCL_ICD_VENDORS=$icd must expose exactly one platform, FiberCL" >&2
  exit 1
fi
clinfo >"$results/clinfo.txt" 2>&1 || true

# ---------------------------------------------------------------- run
fmt_time() { printf '%dm%02ds' $(($1 / 60)) $(($1 % 60)); }

table="| suite | command | passed | failed | skipped / not run | time | status |
|---|---|---:|---:|---:|---:|---|"
all_ok=1

for s in "${suite_list[@]}"; do
  t=$(target_of "$s")
  bin="$build/test_conformance/$s/$t"
  [[ -x $bin ]] || { echo "run_subset.sh: $bin not built" >&2; exit 1; }
  limit=$timeout_min
  [[ $LONG_SUITES == *" $s "* ]] && limit=$long_timeout_min
  read -r -a argv <<<"${args_of[$s]}"
  log="$results/$s.log" json="$results/$s.json"
  rm -f "$json"
  echo "== $s: $t ${args_of[$s]} (limit ${limit} min, log $log)"
  # The number of sub-tests, for "not run" when a suite dies on the way.
  total=$(cd "$(dirname "$bin")" && "$bin" --list 2>/dev/null | grep -c $'^\t' || true)
  start=$(date +%s)
  set +e
  (cd "$(dirname "$bin")" \
    && CL_CONFORMANCE_RESULTS_FILENAME="$json" \
      timeout -k 30 "${limit}m" "$bin" ${argv[@]+"${argv[@]}"}) >"$log" 2>&1
  rc=$?
  set -e
  secs=$(($(date +%s) - start))

  if [[ -s $json ]]; then
    # The CTS's own verdicts: "name": "pass" | "fail" | "skip".
    passed=$(grep -c '": "pass"' "$json" || true)
    failed=$(grep -c '": "fail"' "$json" || true)
    skipped=$(grep -c '": "skip"' "$json" || true)
    notrun=0
  else
    # No JSON: the binary died or was killed. Count the verdict lines it printed.
    passed=$(grep -cE '^[A-Za-z0-9_.-]+ passed$' "$log" || true)
    failed=$(grep -cE '^[A-Za-z0-9_.-]+ FAILED$' "$log" || true)
    skipped=$(grep -cE '^[A-Za-z0-9_.-]+ test (not supported|currently not implemented)$|skipped \(requires' "$log" || true)
    selected=$total
    ((${#argv[@]})) && [[ ${argv[*]} =~ (^| )[a-z] ]] && selected=$(printf '%s\n' "${argv[@]}" | grep -c '^[a-z]' || true)
    notrun=$((selected - passed - failed - skipped))
    ((notrun < 0)) && notrun=0
  fi
  current=$(grep -E '^[A-Za-z0-9_.-]+\.\.\.$' "$log" | tail -1 | sed 's/\.\.\.$//' || true)
  case $rc in
    0) status="completed" ;;
    124 | 137) status="TIMEOUT after ${limit} min${current:+ (in $current)}"; all_ok=0 ;;
    1) if [[ -s $json ]]; then status="completed"; else status="exit 1"; fi; all_ok=0 ;;
    *) if ((rc > 128)); then
         status="CRASH signal $((rc - 128))${current:+ (in $current)}"
       else
         status="exit $rc"
       fi
       all_ok=0 ;;
  esac
  ((failed > 0)) && all_ok=0
  sn="$skipped"
  ((notrun > 0)) && sn="$skipped / $notrun not run"
  cmd="$t${args_of[$s]:+ ${args_of[$s]}}"
  row="| $s | \`$cmd\` | $passed | $failed | $sn | $(fmt_time "$secs") | $status |"
  echo "$row"
  table+=$'\n'"$row"
done

{
  echo "CTS $(git -C "$cts" rev-parse HEAD 2>/dev/null || echo '(not a git checkout)'),"
  echo "FiberCL ICD $icd, $(date -u +%Y-%m-%dT%H:%MZ)$( ((build_secs)) && echo ", CTS subset built in $(fmt_time "$build_secs")")"
  echo
  echo "$table"
} >"$results/summary.md"
echo
cat "$results/summary.md"
echo
echo "logs: $results"
((all_ok))
