#!/usr/bin/env bash
# Rebuilds every program captured with FIBERCL_DUMP_SOURCES=DIR (runtime/source_dump.hpp)
# through the ICD loader, with its options and FIBERCL_DEBUG=verify: a build whose
# FiberCL passes leave invalid IR, or whose compiler crashes, is listed (issue 28).
# Programs whose options name include directories may need them to exist still.
#
#   FIBERCL_DUMP_SOURCES=/tmp/corpus ./some-opencl-app ...   # capture
#   scripts/rebuild_sources.sh /tmp/corpus                   # rebuild them all
#
# Exit status 0 iff no build reported invalid IR or a compiler crash. Builds that fail
# with ordinary diagnostics (a program meant for another device) are counted apart.
set -uo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="${FIBERCL_BUILD_DIR:-$root/build}"
dir=${1:?usage: rebuild_sources.sh DIR}
export OCL_ICD_VENDORS=${OCL_ICD_VENDORS:-$build/fibercl.icd}
export FIBERCL_DEBUG=verify FIBERCL_CACHE=0
unset FIBERCL_DUMP_SOURCES
tool="$build/fibercl"
ok=0 failed=0 broken=0
for cl in "$dir"/*.cl; do
  [[ -e $cl ]] || { echo "rebuild_sources.sh: no .cl files in $dir" >&2; exit 2; }
  options=$(cat "${cl%.cl}.options" 2>/dev/null || true)
  # clCompileProgram's embedded headers, captured beside the program, found by -I.
  [[ -d ${cl%.cl}.headers ]] && options="-I ${cl%.cl}.headers $options"
  # A program the application compiled (to link on its own) is compiled again.
  how=$([[ -e ${cl%.cl}.compile ]] && echo --compile || true)
  log=$("$tool" build $how "$cl" $options 2>&1)
  case $? in
    0) ok=$((ok + 1)) ;;
    *) if grep -q -e "invalid IR" -e "the compiler crashed" <<<"$log"; then
         broken=$((broken + 1))
         echo "BROKEN: $cl ($options)"
         grep -m3 -e "invalid IR" -e "crashed" -A2 <<<"$log" | sed 's/^/    /'
       else
         failed=$((failed + 1))
         echo "failed (diagnostics): $cl"
       fi ;;
  esac
done
echo "rebuilt $((ok + failed + broken)) programs: $ok built, $failed failed with diagnostics, $broken broken (invalid IR or compiler crash)"
((broken == 0))
