#!/usr/bin/env bash
# README quick start, command 2: install what is needed, build FiberCL, run every test.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="${FIBERCL_BUILD_DIR:-$root/build}"
"$root/scripts/install-deps.sh"
"$root/scripts/build.sh"
cd "$build"
ctest --output-on-failure -j "${FIBERCL_TEST_JOBS:-2}" --timeout 600
