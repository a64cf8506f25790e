#!/bin/sh
# compare.sh - `mdlcheck compare A B`: every MDL-CMP rule fires on a pair that differs in just
# that respect, with A's location and B's side in the message; equal pairs (IQE against itself,
# IQE against the IQM compiled from it, and the real bend_box pair) exit 0.
. "${srcdir:-.}/tests/cli/cli-lib.sh"

# A two-joint model with one mesh and a two-frame animation; sed edits make the variants.
base()
{
  cat <<'EOF'
# Inter-Quake Export
joint "root" -1
pq 0 0 0 0 0 0 1
joint "arm" 0
pq 0 1 0 0 0 0 1
mesh "body"
material "skin"
vp 0 0 0
vb 0 1
vp 1 0 0
vb 1 1
vp 0 1 0
vb 0 0.5 1 0.5
fm 0 1 2
animation "wave"
framerate 24
loop
frame
pq 0 0 0 0 0 0 1
pq 0 1 0 0 0 0 1
frame
pq 0 0 0.25 0 0 0 1
pq 0 1 0 0.6 0 0 -0.8
EOF
}

base >"$work/a.iqe"
variant() { base | sed "$1" >"$work/$2"; }

# equal pairs
run compare "$work/a.iqe" "$work/a.iqe"
expect_rc 0 "a file against itself"
expect_grep out "every pose within bound"
run convert "$work/a.iqe" "$work/a.iqm"
expect_rc 0 "convert to IQM"
run compare "$work/a.iqe" "$work/a.iqm"
expect_rc 0 "IQE against its IQM"
expect_grep out "every pose within bound"
run compare "$work/a.iqm" "$work/a.iqe"
expect_rc 0 "IQM against its IQE"
run convert "$work/a.iqm" "$work/b.iqe"
expect_rc 0 "convert the IQM back to IQE"
run compare "$work/b.iqe" "$work/a.iqe"
expect_rc 0 "IQE from the IQM against the original"
run "$work/b.iqe"
expect_rc 0 "the IQE written from the IQM validates"

# one difference each; the diagnostic sits on A's line and names B's
check()
{
  # check RULE FILE LINE what
  run compare "$work/$2" "$work/a.iqe"
  expect_rc 1 "$4"
  expect_grep out "^$work/$2:$3:1: error\[$1\]: .*\($work/a.iqe(:[0-9]+)?\)" "$4: $1 at line $3"
}

variant '/^joint "arm"/,/^pq/d' j1.iqe
check MDL-CMP-001 j1.iqe 2 "joint missing"
variant 's/^joint "arm" 0/joint "elbow" 0/' j2.iqe
check MDL-CMP-002 j2.iqe 4 "joint renamed"
variant 's/^joint "arm" 0/joint "arm" -1/' j3.iqe
check MDL-CMP-003 j3.iqe 4 "joint reparented"
variant 's/^pq 0 1 0 0 0 0 1$/pq 0 1.5 0 0 0 0 1/' p1.iqe
check MDL-CMP-009 p1.iqe 5 "base pose moved"
expect_grep out "joints\[1\]\.pose\.Ty"
variant 's/^pq 0 0 0.25 0 0 0 1$/pq 0 0 0.75 0 0 0 1/' p2.iqe
check MDL-CMP-009 p2.iqe 22 "frame pose moved"
expect_grep out "anims\[0\]\.frames\[1\]\.poses\[0\]\.Tz"
variant 's/^pq 0 1 0 0.6 0 0 -0.8$/pq 0 1 0 -0.6 0 0 0.8/' p3.iqe
run compare "$work/p3.iqe" "$work/a.iqe"
expect_rc 0 "rotations compare up to sign"
variant 's/^animation "wave"/animation "wiggle"/' a1.iqe
check MDL-CMP-005 a1.iqe 15 "animation renamed"
base | awk 'NR > 3 { print buf[NR % 3] } { buf[NR % 3] = $0 }' >"$work/a2.iqe" # drop the last frame
check MDL-CMP-006 a2.iqe 15 "animation shortened"
variant 's/^framerate 24/framerate 30/' a3.iqe
check MDL-CMP-007 a3.iqe 15 "framerate changed"
variant '/^loop$/d' a4.iqe
check MDL-CMP-008 a4.iqe 15 "loop cleared"
variant '/^animation/,$d' a5.iqe
run compare "$work/a5.iqe" "$work/a.iqe"
expect_rc 1 "animation missing"
expect_grep out "error\[MDL-CMP-004\]: 0 animations here, .*a.iqe has 1"
{ base | sed '/^animation/,$d'; printf 'mesh "extra"\nvp 0 0 5\nvp 1 0 5\nvp 0 1 5\nfm 0 1 2\n'; base | sed -n '/^animation/,$p'; } >"$work/m1.iqe"
run compare "$work/m1.iqe" "$work/a.iqe"
expect_rc 1 "extra mesh"
expect_grep out "error\[MDL-CMP-010\]: 2 meshes here"
expect_grep out "error\[MDL-CMP-011\]: model has 6 \(6 distinct\) vertices"
expect_grep out "error\[MDL-CMP-012\]: model has 2 \(2 with distinct corners\) triangles"
# a duplicated vertex and the triangle that collapses on it: writers merge and drop those
variant 's/^fm 0 1 2$/vp 0 1 0\nvb 0 0.5 1 0.5\nfm 0 1 3\nfm 2 3 0/' d1.iqe
run compare "$work/d1.iqe" "$work/a.iqe"
expect_rc 0 "duplicate vertex and collapsed triangle compare as distinct counts"
# the same through the byte-equal arrays of an IQM against itself (compared in bulk): the
# collapsed triangle is still not counted, and a NaN position, equal in bytes, still differs
run convert "$work/d1.iqe" "$work/d1.iqm"
expect_rc 0 "convert the duplicate vertex to IQM"
run compare "$work/d1.iqm" "$work/d1.iqm"
expect_rc 0 "an IQM against itself"
expect_grep out " 4 vertices, 1 triangle matched" "the collapsed triangle is not counted in bulk either"
u32() { od -An -tu4 -j "$2" -N4 "$1" | tr -d ' '; }
cp "$work/d1.iqm" "$work/nan.iqm"
va=$(u32 "$work/nan.iqm" 52) # ofs_vertexarrays; each array: type flags format size offset
while [ "$(u32 "$work/nan.iqm" "$va")" != 0 ]; do va=$((va + 20)); done
printf '\000\000\300\177' | dd of="$work/nan.iqm" bs=1 seek="$(u32 "$work/nan.iqm" $((va + 16)))" conv=notrunc 2>/dev/null
run compare "$work/nan.iqm" "$work/nan.iqm"
expect_rc 1 "a NaN position against itself"
expect_grep out "error\[MDL-CMP-014\]: meshes\[0\]\.vertexes\[0\]: position \(nan 0 0\)" "equal bytes of a NaN are no match"
variant 's/^fm 0 1 2$/fm 0 1 2\nfm 2 1 0/' t1.iqe
check MDL-CMP-012 t1.iqe 6 "extra triangle"
printf 'not a model\n' >"$work/junk.bin"
run compare "$work/junk.bin" "$work/a.iqe"
expect_rc 1 "unreadable side"
expect_grep out "error\[MDL-CMP-013\]: .*junk.bin could not be decoded"

# usage
run compare "$work/a.iqe"
expect_rc 2 "one file"

# every output format works with compare (github annotations, not the text report)
variant 's/^pq 0 1 0 0 0 0 1$/pq 0 1.5 0 0 0 0 1/;t' g1.iqe
run compare -f github "$work/g1.iqe" "$work/a.iqe"
expect_rc 1 "compare -f github"
expect_grep out "^::error file=.*g1.iqe,line=[0-9]+.*MDL-CMP-009" "compare -f github prints annotations"
run compare -f json "$work/g1.iqe" "$work/a.iqe"
expect_grep out '"id": *"MDL-CMP-009"' "compare -f json names the rule by its id"
# the former ids still select the rules (configs written before the rename)
run compare --ignore=IQE-CMP-009 "$work/g1.iqe" "$work/a.iqe"
expect_rc 0 "--ignore by the former id"
# --only narrows a comparison to the differences asked for (they were never hidden before) ...
run compare --only=MDL-CMP-009 "$work/m1.iqe" "$work/a.iqe"
grep -q 'MDL-CMP-00[1-8]\|MDL-CMP-01' "$work/out" && fail "--only=MDL-CMP-009 shows other compare rules"
# ... but never hides that a side could not be compared at all
printf 'not a model' >"$work/junk.bin"
run compare --only=MDL-CMP-009 "$work/junk.bin" "$work/a.iqe"
expect_rc 1 "a side that does not decode, under --only"
expect_grep out "MDL-CMP-013" "--only keeps the unreadable side"
run --list-rules
expect_grep out "^MDL-CMP-009 .*\(alias IQE-CMP-009\)" "the rules listing names the alias"

# convert ends with the comparison: QMSH has no loop flag, so the loop is a difference (exit 1,
# the file still written) unless the loss is accepted by name
run convert "$work/a.iqe" "$work/a.qmsh"
expect_rc 1 "convert to QMSH loses the loop flag"
expect_grep err "error\[MDL-CMP-008\]: anims\[0\] loop flag clear; .*a.iqe has set" "the loss is named"
[ -f "$work/a.qmsh" ] || fail "the output of a failed proof is not written"
# --only selects what is reported, never what the proof accepts: the loss still fails the run
run convert --only='IQE-*' "$work/a.iqe" "$work/o.qmsh"
expect_rc 1 "convert --only= of other rules still loses the loop flag"
expect_grep err "MDL-CMP-008" "the proof's difference is shown under --only"
# (a.iqe's material 'skin' names no file and it has no texture coordinates: QMSH writes the one as
# a texture file name and gives every vertex the other, announced as MDL-CNV-015 and MDL-CNV-014)
run convert --accept-loss=MDL-CMP-008,MDL-CNV-014,MDL-CNV-015 "$work/a.iqe" "$work/b.qmsh"
expect_rc 0 "an accepted loss"
expect_grep out "same model as" "the proof is reported"
run convert -f json --accept-loss=IQE-CMP-008,MDL-CNV-014,MDL-CNV-015 "$work/a.iqe" "$work/c.qmsh"
expect_rc 0 "an accepted loss by its former id"
expect_grep out '"severity": *"warning"' "the accepted loss stays in the report as a warning"
run convert --accept-loss=NOPE-XYZ-001 "$work/a.iqe" "$work/d.qmsh"
expect_rc 2 "--accept-loss of no rule"
# --accept-loss grades each announcement as it is made, after the policy: a loss a --severity
# raised to an error is accepted too (it once made the output read as invalid bytes, nothing
# written); a refusal is never accepted, whatever --accept-loss names
run convert -f json --severity=MDL-CNV-014=error --accept-loss=MDL-CMP-008,MDL-CNV-014,MDL-CNV-015 \
  "$work/a.iqe" "$work/e.qmsh"
expect_rc 0 "an accepted loss raised to an error by --severity"
[ -f "$work/e.qmsh" ] || fail "the accepted conversion is not written"
grep -q '"severity": *"error"' "$work/out" && fail "an accepted loss is still an error in the report"
run convert --accept-loss=MDL-CNV-004 "$srcdir/corpus/iqm/base/animonly.iqm" "$work/f.qmsh"
expect_rc 1 "a refusal named by --accept-loss"
expect_grep err "error\[MDL-CNV-004\]" "the refusal stays an error"
[ -f "$work/f.qmsh" ] && fail "a refused conversion left a file"

# the real exporter pair, when the samples are present
if [ -f "$SAMPLES/iqm/bend_box.iqe" ] && [ -f "$SAMPLES/iqm/bend_box.iqm" ]; then
  run compare "$SAMPLES/iqm/bend_box.iqe" "$SAMPLES/iqm/bend_box.iqm"
  expect_rc 0 "bend_box pair"
  expect_grep out "every pose within bound"
fi
finish
