#!/bin/sh
# X42 conversions keep what the file says: the bind pose of an IQM survives IQM -> X42 (X42 stores
# none: it becomes the frame baseFrame names), and a big-endian X42 is read as the engine reads it,
# so it converts to the little-endian file of the same model. QMSH points and X42 tags carry the
# same frame both ways.
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
# QMSH points are X42 tags: the point 'hand' (model space at the bind pose, on bone1) becomes a
# tag in bone1's space; only its display (type SPHERE, size 0.5) has no place in X42, announced.
q=$srcdir/corpus/qmsh/base/v22-f02.qmsh
run convert --accept-loss=MDL-CNV-008 "$q" "$work/pt.x42"
expect_rc 1 "convert v22-f02.qmsh pt.x42 (the display is lost)"
cat "$work/err" >>"$work/out"
expect_grep out 'MDL-CNV-017.*hand' "the point's display is not announced"
expect_grep out 'MDL-CMP-018.*tags\[0\]\.display' "the proof does not find the display lost"
expect_no_grep out 'MDL-CMP-017|tags\[0\]\.m\[' "the point's frame did not survive as a tag"
run convert --accept-loss=MDL-CNV-008,MDL-CNV-017 "$q" "$work/pt.x42"
expect_rc 0 "convert v22-f02.qmsh pt.x42 with the announced losses accepted"
# and back: the proof compares the X42 tag with the point written from it
run convert "$work/pt.x42" "$work/pt.qmsh"
expect_rc 0 "convert pt.x42 pt.qmsh (the tag must come back as the same frame on the same joint)"
run compare "$q" "$work/pt.qmsh"
expect_rc 1 "compare v22-f02.qmsh pt.qmsh (the display was given up)"
expect_grep out 'MDL-CMP-018.*tags\[0\]\.display' "the lost display is not reported"
expect_no_grep out 'MDL-CMP-017|tags\[0\]\.m\[|joint' "the frame or joint changed over QMSH -> X42 -> QMSH"
# an X42 with tags on two joints to QMSH keeps them as points (before: MDL-CNV-009) (its materials skin and felt name no file: QMSH writes them as texture file names, MDL-CNV-015)
run convert --accept-loss=MDL-CNV-003,MDL-CNV-010,MDL-CNV-011,MDL-CNV-012,MDL-CNV-015 \
  "$srcdir/corpus/x42/base/anim-tags.x42" "$work/tags.qmsh"
expect_rc 0 "convert anim-tags.x42 tags.qmsh"
expect_no_grep err 'MDL-CNV-009|MDL-CMP-01[78]' "X42 tags lost or changed in QMSH"
finish
