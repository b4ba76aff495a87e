#!/usr/bin/env bash
# FIBERCL_DUMP_SOURCES captures what an application builds, and rebuild_sources.sh
# rebuilds it under FIBERCL_DEBUG=verify (issue 28).
#   rebuild_sources.sh ROOT BUILD_DIR APP [ARGS...]
set -euo pipefail
root=$1 build=$2
shift 2
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
FIBERCL_DUMP_SOURCES=$dir "$@" >/dev/null
n=$(ls "$dir"/*.cl | wc -l)
[[ $n -ge 1 ]] || { echo "nothing captured"; exit 1; }
ls "$dir"/*.options >/dev/null # each source has its options beside it
FIBERCL_BUILD_DIR=$build "$root/scripts/rebuild_sources.sh" "$dir"
