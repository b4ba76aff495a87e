#!/bin/sh
# `fibercl explore --jobs N` prints what --jobs 1 prints, and runs N seeds at once:
#
#   explore_jobs.sh FIBERCL N EXPLORE_ARGUMENTS...
#
# runs `FIBERCL explore --jobs 1 EXPLORE_ARGUMENTS` and the same with --jobs N, with
# OVERLAP_DIR set for the application (seeded_failures.sh), and fails unless both
# print the same and exit with the same status, --jobs 1 never ran two runs at once,
# and --jobs N did.
set -u
tool=$1 jobs=$2
shift 2
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
status=0
for n in 1 "$jobs"; do
  mkdir "$dir/overlap$n"
  OVERLAP_DIR="$dir/overlap$n" "$tool" explore --jobs "$n" "$@" >"$dir/out$n" 2>&1
  echo $? >"$dir/status$n"
  echo "--jobs $n: exit status $(cat "$dir/status$n"), at most" \
       "$(sort -n "$dir/overlap$n/overlap" | tail -1) runs at once"
done
cat "$dir/out$jobs"
if ! cmp -s "$dir/out1" "$dir/out$jobs" || ! cmp -s "$dir/status1" "$dir/status$jobs"; then
  echo "FAILED: --jobs 1 and --jobs $jobs differ:"
  diff "$dir/out1" "$dir/out$jobs"
  status=1
fi
if [ "$(sort -n "$dir/overlap1/overlap" | tail -1)" != 1 ]; then
  echo "FAILED: --jobs 1 ran several runs at once"
  status=1
fi
if [ "$(sort -n "$dir/overlap$jobs/overlap" | tail -1)" -lt 2 ]; then
  echo "FAILED: --jobs $jobs never ran two runs at once"
  status=1
fi
exit $status
