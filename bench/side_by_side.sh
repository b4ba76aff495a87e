# Sourced by bench/run.sh and bench/limits.sh: what running FiberCL and PoCL side by
# side in one process needs. Defines
#   ensure_pocl             installs pocl-opencl-icd if its vendor file is missing
#   make_vendors BUILD_DIR  a temporary vendors directory holding fibercl.icd and
#                           pocl.icd (removed at exit), its path in VENDORS
# Build the library as `libfibercl.so`: `ninja fibercl` builds the fibercl TOOL, whose
# output file has that name.
POCL_ICD=/etc/OpenCL/vendors/pocl.icd

ensure_pocl() {
  local sudo=""
  [ "$(id -u)" -ne 0 ] && sudo=sudo
  if [ ! -f "$POCL_ICD" ]; then
    echo "PoCL ICD not found; installing pocl-opencl-icd" >&2
    $sudo apt-get install -y pocl-opencl-icd
  fi
}

make_vendors() {
  VENDORS=$(mktemp -d)
  trap 'rm -rf "$VENDORS"' EXIT
  cp "$1/fibercl.icd" "$VENDORS/fibercl.icd"
  cp "$POCL_ICD" "$VENDORS/pocl.icd"
}
