#!/usr/bin/env bash
# Rebuilds every program captured with FIBERCL_DUMP_SOURCES=DIR (runtime/source_dump.hpp)
# through the ICD loader, with its options and FIBERCL_DEBUG=verify: a build whose
# FiberCL passes leave invalid IR, or whose compiler crashes, is listed (issue 28).
# Programs whose options name include directories may need them to exist still.
#
#   FIBERCL_DUMP_SOURCES=/tmp/corpus ./some-opencl-app ...   # capture
#   scripts/rebuild_sources.sh /tmp/corpus                   # rebuild them all
#
# JOBS (default 1) builds run at once. Exit status 0 iff no build reported invalid IR or
# a compiler crash. Builds that fail with ordinary diagnostics (a program meant for
# another device, or a test of a failing build) are counted apart.
set -uo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="${FIBERCL_BUILD_DIR:-$root/build}"
dir=${1:?usage: rebuild_sources.sh DIR}
export OCL_ICD_VENDORS=${OCL_ICD_VENDORS:-$build/fibercl.icd}
export FIBERCL_DEBUG=verify FIBERCL_CACHE=0
unset FIBERCL_DUMP_SOURCES
export tool="$build/fibercl"
ls "$dir"/*.cl >/dev/null 2>&1 || { echo "rebuild_sources.sh: no .cl files in $dir" >&2; exit 2; }

# One program: prints "built", "failed" or "BROKEN" and its path (and, when broken, why).
rebuild_one() {
  local cl=$1 options how log
  options=$(cat "${cl%.cl}.options" 2>/dev/null || true)
  # clCompileProgram's embedded headers, captured beside the program, found by -I.
  [[ -d ${cl%.cl}.headers ]] && options="-I ${cl%.cl}.headers $options"
  # A program the application compiled (to link on its own) is compiled again.
  how=$([[ -e ${cl%.cl}.compile ]] && echo --compile || true)
  # shellcheck disable=SC2086
  if log=$("$tool" build $how "$cl" $options 2>&1); then
    echo "built $cl"
  elif grep -q -e "invalid IR" -e "the compiler crashed" <<<"$log"; then
    echo "BROKEN $cl ($options)"
    grep -m3 -e "invalid IR" -e "crashed" -A2 <<<"$log" | sed 's/^/    /'
  else
    echo "failed $cl"
  fi
}
export -f rebuild_one

results=$(printf '%s\0' "$dir"/*.cl | xargs -0 -n1 -P "${JOBS:-1}" bash -c 'rebuild_one "$0"')
grep -v -e '^built ' <<<"$results" | sed 's/^failed /failed (diagnostics): /; s/^BROKEN /BROKEN: /'
ok=$(grep -c '^built ' <<<"$results")
failed=$(grep -c '^failed ' <<<"$results")
broken=$(grep -c '^BROKEN ' <<<"$results")
echo "rebuilt $((ok + failed + broken)) programs: $ok built, $failed failed with diagnostics, $broken broken (invalid IR or compiler crash)"
((broken == 0))
