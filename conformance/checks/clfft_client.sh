#!/usr/bin/env bash
# clFFT's own client (Debian's clfft-client: it verifies each transform against its
# reference, "Internal Client Test *****PASS*****") over 25 shapes -- 1-D (powers of 2,
# 3 and 5, mixed radix), 2-D, 3-D, batched, single and double, forward and inverse, in
# and out of place, complex interleaved and planar, real to hermitian and back -- on
# FiberCL with FIBERCL_CHECK (default all). Prints each case's verdict and how many
# FiberCL reports it printed, with the first reports; CHECKS.md has the results.
#   conformance/checks/clfft_client.sh            (FIBERCL_LIB: default build/libfibercl.so)
#   CHECK=bounds,races conformance/checks/clfft_client.sh
#   FIBERCL_CHECK_CONTINUE=1 conformance/checks/clfft_client.sh
set -u
here=$(cd "$(dirname "$0")" && pwd)
lib=${FIBERCL_LIB:-$(cd "$here/../.." && pwd)/build/libfibercl.so}
command -v clFFT-client > /dev/null || { echo "clFFT-client not found (apt-get install clfft-client)" >&2; exit 1; }
vendors=$(mktemp -d)
trap 'rm -rf "$vendors"' EXIT
echo "$lib" > "$vendors/fibercl.icd"
export OCL_ICD_VENDORS=$vendors FIBERCL_CHECK=${CHECK:-all}
pass=0 fail=0 reported=0
while read -r args; do
  out=$(timeout 600 clFFT-client $args 2>&1)
  rc=$?
  reports=$(grep -c "FiberCL: kernel" <<< "$out")
  if grep -q '\*\*\*\*\*PASS\*\*\*\*\*' <<< "$out"; then verdict=PASS pass=$((pass + 1))
  else verdict="FAIL (rc $rc)" fail=$((fail + 1)); fi
  [ "$reports" -gt 0 ] && reported=$((reported + 1))
  echo "$verdict, $reports reports: clFFT-client $args"
  grep -A1 "FiberCL: kernel" <<< "$out" | head -4 | sed 's/^/    /'
done << 'CASES'
-x 64
-x 1024
-x 4096 -o
-x 65536
-x 1048576 -o
-x 1024 --inv
-x 1024 --double
-x 4096 --double -o --inv
-x 60
-x 1000 -o
-x 2187
-x 625 --double
-x 64 -y 64
-x 256 -y 256 -o
-x 128 -y 64 --double --inv
-x 16 -y 16 -z 16
-x 64 -y 32 -z 8 -o
-x 1024 -b 8
-x 1024 --inLayout 2 --outLayout 2 -o
-x 1024 --inLayout 1 --outLayout 2 -o
-x 1024 --inLayout 5 --outLayout 3 -o
-x 1024 --inLayout 3 --outLayout 5 -o --inv
-x 4096 --inLayout 5 --outLayout 3 -o --double
-x 64 -y 64 --inLayout 5 --outLayout 3 -o
-x 64 -y 64 --inLayout 3 --outLayout 5 -o --inv
CASES
echo "FIBERCL_CHECK=$FIBERCL_CHECK: $pass passed, $fail failed, $reported with FiberCL reports"
[ "$fail" = 0 ]
