#!/usr/bin/env bash
# Runs `gyre geom` on a file of requests and compares its stdout with the expected replies.
set -euo pipefail
gyre=$1 input=$2 expected=$3
actual=$("$gyre" geom < "$input")
if ! diff <(printf '%s\n' "$actual") "$expected"; then
  echo "gyre geom replies differ from $expected (< actual, > expected)" >&2
  exit 1
fi
echo "gyre geom: $(wc -l < "$expected") replies as expected"
