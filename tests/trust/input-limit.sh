#!/bin/sh
# --max-input-size bounds every input: standard input, FIFOs, regular files, the text an .egg.pz
# inflates to, reports read by diff and --baseline. Over the limit: MDL-IO-002 (or a message for
# the reports), exit 3, and no hang on an endless stream.
. "${srcdir:-.}/tests/cli/cli-lib.sh"

# run_bounded ARGS...: run with a time limit, so an unbounded read fails instead of hanging
run_bounded()
{
  rc=0
  timeout 60 "$MDLCHECK" "$@" >"$work/out" 2>"$work/err" || rc=$?
  echo "+ mdlcheck $* -> $rc"
  [ "$rc" -ne 124 ] || fail "mdlcheck $* did not stop within 60 s"
}

# feed FIFO CMD...: write CMD's endless output into FIFO in the background (killed by SIGPIPE
# when the reader stops; by timeout if nobody ever opens the FIFO)
feed()
{
  _fifo=$1
  shift
  timeout 60 sh -c '"$@" >"$0"' "$_fifo" "$@" 2>/dev/null 3<&- &
}

printf '# Inter-Quake Export\njoint root -1\npq 0 0 0 0 0 0 1\n' >"$work/small.iqe"

# standard input: an endless stream stops at the limit
run_bounded --max-input-size=1M - </dev/zero
expect_rc 3 "endless stdin"
expect_grep out "^-: fatal\[MDL-IO-002\]: the input exceeds the input size limit of 1048576 bytes"
run_bounded --max-input-size=1M - <"$work/small.iqe"
expect_rc 0 "small stdin"

# a FIFO fed endlessly
mkfifo "$work/fifo" || exit 99
# held open here while mdlcheck opens it: a FIFO no process has opened for writing yet reads as
# empty (inputs are opened without blocking, 60cc76f), and the feeder may not have started
exec 3<>"$work/fifo"
feed "$work/fifo" yes
run_bounded --max-input-size=64K -f json "$work/fifo"
expect_rc 3 "endless FIFO"
expect_grep out '"id": "MDL-IO-002"'
exec 3<&-
wait

# a regular file over the limit is refused by its size, unread; at the limit it is validated
size=$(wc -c <"$work/small.iqe")
run_bounded --max-input-size="$((size - 1))" "$work/small.iqe"
expect_rc 3 "file one byte over"
expect_grep out "fatal\[MDL-IO-002\]"
run_bounded --max-input-size="$size" "$work/small.iqe"
expect_rc 0 "file exactly at the limit"

# the default is 1 GiB: a sparse file of 1 GiB + 1 byte is refused without being read
if truncate -s 1073741825 "$work/huge.iqe" 2>/dev/null; then
  run_bounded "$work/huge.iqe"
  expect_rc 3 "default limit"
  expect_grep out "limit of 1073741824 bytes"
  rm -f "$work/huge.iqe"
fi

# suffixes, and sizes that are not sizes
run_bounded --max-input-size=1k "$work/small.iqe"
expect_rc 0 "1k"
run_bounded --max-input-size=2MiB "$work/small.iqe"
expect_rc 0 "2MiB"
for bad in 0 -5 1X 1.5M "" M 99999999999999999999G; do
  run_bounded --max-input-size="$bad" "$work/small.iqe"
  expect_rc 2 "--max-input-size=$bad"
  expect_lines out 0
done

# the configuration key, overridden by the option
printf 'max-input-size: 16\n' >"$work/limit.yaml"
run_bounded --config="$work/limit.yaml" "$work/small.iqe"
expect_rc 3 "config key"
run_bounded --config="$work/limit.yaml" --max-input-size=1M "$work/small.iqe"
expect_rc 0 "option over config"
printf 'max-input-size: lots\n' >"$work/bad.yaml"
run_bounded --config="$work/bad.yaml" "$work/small.iqe"
expect_rc 2 "bad config value"
expect_grep err "error\[MDL-CFG-003\]: bad value for max-input-size"

# .egg.pz: the inflated text counts (the old fixed 256 MiB bound is gone)
"$PYTHON" -c 'import sys, zlib; sys.stdout.buffer.write(zlib.compress(b"<Group> g { }\n" + b" " * 300000))' \
  >"$work/big.egg.pz" || exit 99
run_bounded --max-input-size=200K "$work/big.egg.pz"
expect_rc 3 "inflated .pz over the limit"
expect_grep out "the text this .egg.pz decompresses to exceeds the input size limit of 204800 bytes"
run_bounded --max-input-size=400K "$work/big.egg.pz"
expect_rc 0 "inflated .pz under the limit"
run_bounded poses --max-input-size=200K "$work/big.egg.pz"
expect_rc 3 "poses: inflated .pz over the limit"
expect_grep err "MDL-IO-002"

# poses, convert and compare read through the same limit
run_bounded poses --max-input-size=16 "$work/small.iqe"
expect_rc 3 "poses"
expect_grep err "larger than the input size limit of 16 bytes"
run_bounded convert --max-input-size=16 "$work/small.iqe" "$work/out.iqm"
expect_rc 3 "convert"
run_bounded compare --max-input-size=16 "$work/small.iqe" "$work/small.iqe"
expect_rc 3 "compare"

# reports read by diff and --baseline
run_bounded -f json -o "$work/rep.json" "$work/small.iqe"
expect_rc 0 "report"
run_bounded diff "$work/rep.json" "$work/rep.json"
expect_rc 0 "diff of small reports"
run_bounded diff --max-input-size=100 "$work/rep.json" "$work/rep.json"
expect_rc 3 "diff: report over the limit"
expect_grep err "^mdlcheck: diff: .*rep.json: larger than the input size limit of 100 bytes"
run_bounded --baseline="$work/rep.json" --max-input-size=100 -f json "$work/rep.json"
expect_rc 3 "baseline over the limit"
expect_grep err "cannot use baseline: .*larger than the input size limit"

# diff on a FIFO: a report must be a regular file, refused unread (tests/security/nonregular.sh)
mkfifo "$work/fifo2" || exit 99
run_bounded diff --max-input-size=1M "$work/fifo2" "$work/rep.json"
expect_rc 2 "diff on a FIFO (unusable, as a missing report)"
expect_grep err "not a regular file \\(a FIFO\\)"

finish
