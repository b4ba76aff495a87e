#!/usr/bin/env bash
# Prints the -cl-ext value FiberCL compiles kernels and the builtins library with
# (FIBERCL_CL_EXT in CMakeLists.txt), from the one list in
# builtins/include/fibercl/device_features.def.
set -euo pipefail
def="$(cd "$(dirname "$0")/.." && pwd)/include/fibercl/device_features.def"
names=$(sed -n 's/^FCL_[A-Z_]*(\([A-Za-z0-9_]*\).*/+\1/p' "$def" | paste -sd,)
[ -n "$names" ] || { echo "no entries in $def" >&2; exit 2; }
echo "-all,$names"
