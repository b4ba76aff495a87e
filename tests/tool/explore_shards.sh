#!/bin/sh
# `fibercl explore --shard I/N` for I = 1..N together run each seed of the range once,
# and judge it as the whole range's run does (against the range's first seed):
#
#   explore_shards.sh FIBERCL N A..B EXPLORE_ARGUMENTS...
#
# fails unless the seed lines ("seed S: ..." and its "reproduce:" line) of the N
# shards, put together and sorted, are those of the unsharded run, each seed once, the
# shards' counts of seeds add up to B - A + 1, and some shard fails iff the whole does.
set -u
tool=$1 n=$2 range=$3
shift 3
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
seed_lines() { # "seed S: ...", joined with its reproduce line
  awk '/^seed [0-9]+:/ { if (s) print s; s = $0; next }
       /^  reproduce:/ { s = s " |" $0; next }
       { if (s) print s; s = "" }
       END { if (s) print s }' "$1" | sort
}
"$tool" explore --seeds "$range" "$@" >"$dir/whole" 2>&1
whole_status=$?
seed_lines "$dir/whole" >"$dir/whole.seeds"
: >"$dir/shards.seeds"
shard_failed=0 total=0 i=1
while [ "$i" -le "$n" ]; do
  "$tool" explore --seeds "$range" --shard "$i/$n" --jobs 2 "$@" >"$dir/shard$i" 2>&1
  [ $? -ne 0 ] && shard_failed=1
  echo "--- shard $i/$n:"
  cat "$dir/shard$i"
  seed_lines "$dir/shard$i" >>"$dir/shards.seeds"
  total=$((total + $(sed -n 's/^[0-9]* of \([0-9]*\) seeds stood out.*/\1/p' "$dir/shard$i")))
  i=$((i + 1))
done
sort -o "$dir/shards.seeds" "$dir/shards.seeds"
status=0
first=${range%..*} last=${range#*..}
if [ "$total" -ne $((last - first + 1)) ]; then
  echo "FAILED: the shards ran $total seeds, not $((last - first + 1))"
  status=1
fi
if [ "$(sed 's/:.*//' "$dir/shards.seeds" | uniq -d)" != "" ]; then
  echo "FAILED: seeds run by several shards: $(sed 's/:.*//' "$dir/shards.seeds" | uniq -d)"
  status=1
fi
if ! cmp -s "$dir/whole.seeds" "$dir/shards.seeds"; then
  echo "FAILED: the shards' seed lines differ from the whole range's:"
  diff "$dir/whole.seeds" "$dir/shards.seeds"
  status=1
fi
if [ $((whole_status != 0)) -ne "$shard_failed" ]; then
  echo "FAILED: the whole range exits with $whole_status, yet shard failures: $shard_failed"
  status=1
fi
exit $status
