#!/usr/bin/env bash
# README quick start, command 1: install what is needed, build FiberCL, and run an
# OpenCL program on it through the ICD loader (plus clinfo listing the platform).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="${FIBERCL_BUILD_DIR:-$root/build}"
"$root/scripts/install-deps.sh"
"$root/scripts/build.sh"
export OCL_ICD_VENDORS="$build/fibercl.icd"
echo "== clinfo (OCL_ICD_VENDORS=$OCL_ICD_VENDORS)"
clinfo -l
clinfo | grep -E "Platform Name|Device Name|Device Version|OpenCL C|Max compute units" | head -8
echo "== examples/fibercl_demo"
"$build/examples/fibercl_demo"
