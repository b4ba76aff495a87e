#!/bin/bash
# hashcat's benchmark on FiberCL and PoCL, side by side: speed (warm run) and build time
# (cold run minus warm run, wall time). Usage: bench/hashcat.sh [mode...] (default: 0 1400 1700 500)
# Needs build/fibercl.icd (ninja -C build) and Debian's hashcat and pocl-opencl-icd.
set -eu
{ command -v hashcat && [ -e /etc/OpenCL/vendors/pocl.icd ]; } >/dev/null || apt-get install -y hashcat pocl-opencl-icd >/dev/null
root=$(cd "$(dirname "$0")/.." && pwd)
modes=${*:-0 1400 1700 500}
now() { date +%s.%N; }
for m in $modes; do
  for plat in FiberCL PoCL; do
    icd=$root/build/fibercl.icd
    [ $plat = PoCL ] && icd=/etc/OpenCL/vendors/pocl.icd
    rm -rf ~/.cache/hashcat/kernels ~/.cache/pocl ~/.cache/fibercl
    run() { OCL_ICD_VENDORS=$icd hashcat -b -m "$m" --backend-ignore-cuda --quiet 2>&1; }
    s=$(now); run >/dev/null; cold=$(echo "$(now) - $s" | bc)
    s=$(now); speed=$(run | grep Speed | sed 's/Speed.#1\.*: *//'); warm=$(echo "$(now) - $s" | bc)
    printf -- '-m %-5s %-7s build %6.1f s  speed %s\n' "$m" "$plat" "$(echo "$cold - $warm" | bc)" "$speed"
  done
done
