#!/usr/bin/env bash
# The real-kernel corpus (issue 28): runs real OpenCL applications on FiberCL with
# FIBERCL_DUMP_SOURCES, one folder per application, so that scripts/rebuild_sources.sh
# can rebuild every program they built under the verifier, and scripts/fuzz.sh can
# seed the source fuzzer with them. Nothing captured is committed: the sources are
# third parties' (README: "The real-kernel corpus").
#
#   scripts/capture_corpus.sh DIR [APP...]
#
# APPs (default: all but cts): piglit (its cl profile), clblast (Debian's
# clblast_test_x* binaries), clfft (clFFT-client on a set of transforms), hashcat
# (`hashcat -b` on a set of modes), cts (CTS_BUILD=<an OpenCL-CTS build>: the suites
# conformance/cts/run_subset.sh runs, each for at most CTS_MINUTES, default 10).
# PyOpenCL's suite and ffmpeg are captured as README says. The Debian packages the
# applications come from are installed when missing. Each application runs at most
# APP_MINUTES (default 20) per command; a capture of the builds it reached is what counts here, not
# its verdicts (those are the conformance runs' business).
set -uo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="${FIBERCL_BUILD_DIR:-$root/build}"
out=${1:?usage: capture_corpus.sh DIR [APP...]}
shift
apps=${*:-piglit clblast clfft hashcat}
limit=$((${APP_MINUTES:-20} * 60))
export OCL_ICD_VENDORS=${OCL_ICD_VENDORS:-$build/fibercl.icd}
export FIBERCL_CACHE=0 # every build reaches the compiler (and the dump)
mkdir -p "$out"
out=$(cd "$out" && pwd)

need() { # need COMMAND PACKAGE
  command -v "$1" >/dev/null && return
  DEBIAN_FRONTEND=noninteractive apt-get install -y -q "$2" >/dev/null
}

capture() { # capture APP COMMAND...: runs COMMAND with the dump into $out/APP
  local app=$1
  shift
  mkdir -p "$out/$app"
  FIBERCL_DUMP_SOURCES="$out/$app" timeout -k 10 "$limit" "$@" >>"$out/$app.log" 2>&1
  local status=$?
  [[ $status == 124 ]] && echo "  ($app: stopped after $((limit / 60)) min: $*)"
  return 0
}

for app in $apps; do
  start=$(date +%s)
  case $app in
    piglit)
      need piglit piglit
      rm -rf "$out/piglit-results"
      capture piglit piglit run -c cl "$out/piglit-results" ;;
    clblast)
      need clblast_test_xgemm clblast-tests
      # Each routine's test builds its kernels for every precision first, then checks
      # many sizes: CLBLAST_MINUTES (default 2) per routine reaches the builds.
      for t in /usr/bin/clblast_test_x*; do
        limit=$((${CLBLAST_MINUTES:-2} * 60)) capture clblast "$t"
      done ;;
    clfft)
      need clFFT-client clfft-client
      # 1D/2D/3D, powers of 2, 3, 5, 7, single and double, complex and real, in and out
      # of place, forward and backward, a batch.
      while read -r args; do
        capture clfft clFFT-client $args
      done <<'TRANSFORMS'
-x 1024
-x 1048576
-x 4096 --double
-x 2187 -b 3
-x 3125
-x 2401 --double
-x 210
-x 256 -y 256
-x 64 -y 64 -z 64
-x 1024 --outPlace
-x 1024 --inv
-x 4096 --inLayout 5 --outLayout 3
-x 4096 --inLayout 3 --outLayout 5 --outPlace
-x 100 -y 60 --double --inLayout 5 --outLayout 3
TRANSFORMS
      ;;
    hashcat)
      need hashcat hashcat
      rm -rf ~/.cache/hashcat/kernels
      for m in 0 100 1400 1700 500 1800 3200 1000 13100 22000 11300 5600; do
        capture hashcat hashcat -b -m "$m" --backend-ignore-cuda --quiet
      done ;;
    cts)
      cts=${CTS_BUILD:?cts: set CTS_BUILD to an OpenCL-CTS build}/test_conformance
      ctsLimit=$((${CTS_MINUTES:-10} * 60))
      for suite in basic commonfns geometrics relationals integer_ops conversions \
                   math_brute_force printf workgroups atomics c11_atomics vectors select compiler; do
        bin=$(ls "$cts/$suite"/test_* 2>/dev/null | head -1)
        [[ -x $bin ]] || { echo "  (cts: $suite not built)"; continue; }
        args=$([[ $suite == math_brute_force || $suite == conversions || $suite == integer_ops ]] && echo -w)
        (cd "$cts/$suite" && limit=$ctsLimit capture cts "$bin" $args)
      done ;;
    *) echo "capture_corpus.sh: unknown application $app" >&2; exit 2 ;;
  esac
  n=$(ls "$out/$app"/*.cl 2>/dev/null | wc -l)
  echo "$app: $n programs captured in $(($(date +%s) - start)) s (log: $out/$app.log)"
done
