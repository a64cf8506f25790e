#!/bin/sh
# Many diagnostics on one long line were quadratic: each one's context scanned the line from its
# start to its end (30,000 on one 360 KB line: 6 CPU seconds; 100,000 on 1.2 MB: over a minute).
# The line's end is now found once per line. The limit (30 s, sanitizer builds included) only
# fails a return of the quadratic cost; the output is checked to be whole.
. "${srcdir:-.}/tests/cli/cli-lib.sh"
limit=30

# 100,000 unknown entries (an error each) on one line of 1.2 MB
awk 'BEGIN { printf "<CoordinateSystem> { Z-up } "; for (i = 0; i < 100000; i++) printf "<Bogus> { } "; print "" }' \
  >"$work/line.egg"

for fmt in json text; do
  rc=0
  timeout "$limit" "$MDLCHECK" validate --max-per-rule=0 -f "$fmt" "$work/line.egg" >"$work/out" 2>"$work/err" || rc=$?
  echo "+ mdlcheck validate --max-per-rule=0 -f $fmt line.egg -> $rc"
  [ "$rc" -ne 124 ] || fail "-f $fmt: not finished in $limit s"
  expect_rc 1 "-f $fmt: the unknown entries are errors"
  mv "$work/out" "$work/$fmt"
done
# every diagnostic is there; the last one at the line's end, with the window of the line around it
n=$(grep -c 'EGG-SYN-002' "$work/json")
[ "$n" -ge 100000 ] || fail "json: $n diagnostics of EGG-SYN-002, expected 100,000"
tail -n 4 "$work/text" | head -n 1 | grep -q ':1:12000[0-9][0-9]: error\[EGG-SYN-002\]' \
  || fail "text: the last diagnostic is not at the line's end"
tail -n 3 "$work/text" | head -n 1 | grep -q '<Bogus> { } <Bogus>' || fail "text: the last diagnostic shows no context"
finish
