#!/bin/bash
# The e2e suite through FiberCL's forwarding platform gives the vendor's own results:
# every test that passes on the vendor directly passes through FiberCL, and nothing
# fails through FiberCL that does not fail on the vendor (the vendor's own
# non-conformance is not FiberCL's to fix, and is listed).
#   same_results_as_vendor.sh E2E_TESTS "VENDOR PLATFORM NAME" [TESTS THAT CRASH THE VENDOR]
# (the third: a gtest filter pattern, e.g. Build.GarbageBinaryIsRejected for rusticl).
# Run with OCL_ICD_VENDORS naming FiberCL and the vendor, FIBERCL_DELEGATE selecting it.
set -u
tests=$1
vendor=$2
crashes=${3:-}
delegated="FiberCL -> $vendor"
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

run() { # platform, output file
  FIBERCL_TEST_PLATFORM="$1" "$tests" "--gtest_filter=-Delegation.*${crashes:+:$crashes}" > "$2" 2>&1
  echo "  $1: $(grep -c '^\[       OK \]' "$2") passed, $(grep '^\[  FAILED  \].*ms)$' "$2" | sort -u | wc -l) failed, exit $?"
}
finished() { grep -q "^\[  PASSED  \]\|^\[==========\].*ran" "$1"; }
echo "e2e suite on the vendor directly and through FiberCL:"
# A test that crashes the vendor's own process ends its run: leave it out of both runs
# (and say so), up to 10 of them.
for attempt in 1 2 3 4 5 6 7 8 9 10; do
  run "$vendor" "$out/vendor.txt"
  finished "$out/vendor.txt" && break
  crashed=$(grep '^\[ RUN      \]' "$out/vendor.txt" | tail -1 | sed -E 's/^\[ RUN +\] //')
  [ -n "$crashed" ] || break
  echo "  '$crashed' crashed the vendor's process: left out of both runs"
  crashes=${crashes:+$crashes:}$crashed
done
run "$delegated" "$out/delegated.txt"

names() { grep "^\[ *$2 *\] [A-Za-z_0-9/]*\.[A-Za-z_0-9/]*" "$1" | sed -E 's/^\[[^]]*\] ([^ ]+).*/\1/' | sort -u; }
names "$out/vendor.txt" OK > "$out/vendor.ok"
names "$out/delegated.txt" OK > "$out/delegated.ok"
names "$out/vendor.txt" FAILED > "$out/vendor.failed"
names "$out/delegated.txt" FAILED > "$out/delegated.failed"

status=0
lost=$(comm -23 "$out/vendor.ok" "$out/delegated.ok")
if [ -n "$lost" ]; then
  echo "FAILED: pass on '$vendor' but not through FiberCL:"; echo "$lost" | sed 's/^/  /'
  status=1
fi
if ! finished "$out/delegated.txt"; then
  echo "FAILED: the run through FiberCL did not finish:"; tail -20 "$out/delegated.txt"
  status=1
fi
if [ "$(wc -l < "$out/delegated.ok")" -lt 20 ]; then
  echo "FAILED: fewer than 20 tests passed through FiberCL"; status=1
fi
echo "the vendor's own failures (the same through FiberCL):"
comm -12 "$out/vendor.failed" "$out/delegated.failed" | sed 's/^/  /'
[ $status = 0 ] && echo "same results through FiberCL as on '$vendor'"
exit $status
