#!/bin/sh
# A FIFO with a model name in a walked folder (or named on the command line) is read at once as
# empty input, never waited on: the library opened inputs blocking, so `mdlcheck assets` with
# an `assets/x.iqm` FIFO that nothing writes hung for ever. A pipe that has a writer is still
# read to its end (`mdlcheck <(cat m.iqm)`).
. "$srcdir/tests/cli/cli-lib.sh"

a=$work/assets
mkdir -p "$a"
cp "$srcdir/corpus/iqm/base/static.iqm" "$a/in.iqm"
mkfifo "$a/x.iqm" || { echo "SKIP: mkfifo unavailable"; exit 77; }

rc=0
timeout 30 "$MDLCHECK" "$a" >"$work/out" 2>"$work/err" || rc=$?
echo "+ mdlcheck $a -> $rc"
[ "$rc" -ne 124 ] || fail "the walk waits on a FIFO nothing writes"
expect_rc 1 "the empty FIFO is an invalid model, the other file is checked"
expect_grep out "x\.iqm: invalid iqm" "the FIFO is reported"
expect_grep out "in\.iqm: valid" "the regular file beside it is validated"

rc=0
timeout 30 "$MDLCHECK" "$a/x.iqm" >"$work/out" 2>"$work/err" || rc=$?
echo "+ mdlcheck $a/x.iqm -> $rc"
[ "$rc" -ne 124 ] || fail "a FIFO named on the command line is waited on"
expect_rc 1

# a pipe with a writer: read whole, as before
rc=0
cat "$a/in.iqm" | timeout 30 "$MDLCHECK" /dev/stdin >"$work/out" 2>"$work/err" || rc=$?
expect_rc 0 "a pipe with a writer is read to its end"
expect_grep out "valid iqm" "the piped model"
finish
