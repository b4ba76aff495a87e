#!/usr/bin/env bash
# Prints, from the one list in builtins/include/fibercl/device_features.def, what
# FiberCL compiles kernels and the builtins library with, for the builtins tools:
#   cl_ext.sh                    the -cl-ext value (FIBERCL_CL_EXT in CMakeLists.txt)
#   cl_ext.sh --feature-defines  -D<name>=1 for each OpenCL C feature
#                                (FIBERCL_FEATURE_DEFINES; Clang ignores them in
#                                -cl-ext for x86)
set -euo pipefail
def="$(cd "$(dirname "$0")/.." && pwd)/include/fibercl/device_features.def"
case "${1:-}" in
  "")
    names=$(sed -n 's/^FCL_[A-Z_]*(\([A-Za-z0-9_]*\).*/+\1/p' "$def" | paste -sd,)
    [ -n "$names" ] || { echo "no entries in $def" >&2; exit 2; }
    echo "-all,$names" ;;
  --feature-defines)
    defs=$(sed -n 's/^FCL_OPENCL_C_FEATURE(\([A-Za-z0-9_]*\).*/-D\1=1/p' "$def" | paste -sd' ')
    [ -n "$defs" ] || { echo "no features in $def" >&2; exit 2; }
    echo "$defs" ;;
  *) echo "usage: $0 [--feature-defines]" >&2; exit 2 ;;
esac
