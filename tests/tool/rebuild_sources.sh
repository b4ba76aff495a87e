#!/usr/bin/env bash
# FIBERCL_DUMP_SOURCES captures what an application builds, and rebuild_sources.sh
# rebuilds it under FIBERCL_DEBUG=verify (issue 28).
#   rebuild_sources.sh ROOT BUILD_DIR APP [ARGS...]
# With COMPILED=1, the application must have compiled programs with embedded headers
# (clCompileProgram), which must be captured as such.
set -euo pipefail
root=$1 build=$2
shift 2
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
FIBERCL_DUMP_SOURCES=$dir "$@" >/dev/null
n=$(ls "$dir"/*.cl | wc -l)
[[ $n -ge 1 ]] || { echo "nothing captured"; exit 1; }
ls "$dir"/*.options >/dev/null # each source has its options beside it
if [[ ${COMPILED:-0} == 1 ]]; then
  ls "$dir"/*.compile >/dev/null || { echo "no program captured as compiled"; exit 1; }
  ls -d "$dir"/*.headers >/dev/null || { echo "no embedded header captured"; exit 1; }
fi
FIBERCL_BUILD_DIR=$build "$root/scripts/rebuild_sources.sh" "$dir"
