#!/bin/sh
# An application whose run depends on FIBERCL_SEED, for `fibercl explore`'s tests:
#
#   seeded_failures.sh INTER_GROUP
#
# Seeds divisible by 3 run inter_group's barrier over 3 work-groups (a deadlock that
# FiberCL reports when explore runs it at --occupancy 2); the other seeds divisible by
# 5 exit with status 3; the rest run the barrier over 2 work-groups, which completes.
# Each run first sleeps longer the smaller its seed's last digit, so that with --jobs
# later seeds end first. With OVERLAP_DIR set, each run also appends to
# OVERLAP_DIR/overlap how many runs were going when it was (the files in OVERLAP_DIR
# named running.*).
seed=${FIBERCL_SEED:?FIBERCL_SEED is not set}
if [ -n "$OVERLAP_DIR" ]; then
  touch "$OVERLAP_DIR/running.$seed"
fi
sleep "0.$((9 - seed % 10))"
if [ -n "$OVERLAP_DIR" ]; then
  ls "$OVERLAP_DIR" | grep -c '^running\.' >>"$OVERLAP_DIR/overlap"
  rm -f "$OVERLAP_DIR/running.$seed"
fi
if [ $((seed % 3)) -eq 0 ]; then
  exec "$1" barrier 3
elif [ $((seed % 5)) -eq 0 ]; then
  echo "seed $seed gives up"
  exit 3
fi
exec "$1" barrier 2
