#!/bin/sh
# X42 conversions keep what the file says: the bind pose of an IQM survives IQM -> X42 (X42 stores
# none: it becomes the frame baseFrame names), and a big-endian X42 is read as the engine reads it,
# so it converts to the little-endian file of the same model.
. "${srcdir:-.}/tests/cli/cli-lib.sh"

iqm=$SAMPLES/iqm/mrfixit.iqm
if [ -f "$iqm" ]; then
  run convert "$iqm" "$work/mf.x42"
  expect_rc 0 "convert mrfixit.iqm mf.x42 (the written file must say what the IQM says)"
  run compare "$iqm" "$work/mf.x42"
  expect_rc 0 "compare mrfixit.iqm mf.x42"
  expect_no_grep out 'MDL-CMP-009' "a base pose moved in IQM -> X42"
  # and back: the reader takes the bind pose from baseFrame (convert proves it against mf.x42)
  run convert "$work/mf.x42" "$work/back.iqm"
  expect_rc 0 "convert mf.x42 back.iqm"
else
  echo "no sample at $iqm: the IQM -> X42 bind pose part skipped"
fi

be=$srcdir/corpus/x42/base/anim-be.x42
run convert "$be" "$work/le.x42"
expect_rc 0 "convert anim-be.x42 le.x42"
cmp "$work/le.x42" "$srcdir/corpus/x42/base/anim.x42" >/dev/null ||
  fail "the big-endian anim-be.x42 does not convert to anim.x42, the same file little-endian"
run compare "$be" "$srcdir/corpus/x42/base/anim.x42"
expect_rc 0 "compare anim-be.x42 anim.x42"
finish
