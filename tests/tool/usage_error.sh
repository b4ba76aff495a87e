#!/bin/sh
# A command line the tool must refuse: exit status 2 and MESSAGE on its error output.
#
#   usage_error.sh MESSAGE COMMAND...
set -u
message=$1
shift
err=$("$@" 2>&1 >/dev/null)
status=$?
printf '%s\n' "$err" | head -1
if [ "$status" -ne 2 ]; then
  echo "FAILED: exit status $status, not 2"
  exit 1
fi
case $err in
*"$message"*) exit 0 ;;
esac
echo "FAILED: no \"$message\" in the error output"
exit 1
