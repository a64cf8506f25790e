#!/bin/sh
# compare.sh - `mdlcheck compare A B`: every IQE-CMP rule fires on a pair that differs in just
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
check IQE-CMP-001 j1.iqe 2 "joint missing"
variant 's/^joint "arm" 0/joint "elbow" 0/' j2.iqe
check IQE-CMP-002 j2.iqe 4 "joint renamed"
variant 's/^joint "arm" 0/joint "arm" -1/' j3.iqe
check IQE-CMP-003 j3.iqe 4 "joint reparented"
variant 's/^pq 0 1 0 0 0 0 1$/pq 0 1.5 0 0 0 0 1/' p1.iqe
check IQE-CMP-009 p1.iqe 5 "base pose moved"
expect_grep out "joints\[1\]\.pose\.Ty"
variant 's/^pq 0 0 0.25 0 0 0 1$/pq 0 0 0.75 0 0 0 1/' p2.iqe
check IQE-CMP-009 p2.iqe 22 "frame pose moved"
expect_grep out "anims\[0\]\.frames\[1\]\.poses\[0\]\.Tz"
variant 's/^pq 0 1 0 0.6 0 0 -0.8$/pq 0 1 0 -0.6 0 0 0.8/' p3.iqe
run compare "$work/p3.iqe" "$work/a.iqe"
expect_rc 0 "rotations compare up to sign"
variant 's/^animation "wave"/animation "wiggle"/' a1.iqe
check IQE-CMP-005 a1.iqe 15 "animation renamed"
base | awk 'NR > 3 { print buf[NR % 3] } { buf[NR % 3] = $0 }' >"$work/a2.iqe" # drop the last frame
check IQE-CMP-006 a2.iqe 15 "animation shortened"
variant 's/^framerate 24/framerate 30/' a3.iqe
check IQE-CMP-007 a3.iqe 15 "framerate changed"
variant '/^loop$/d' a4.iqe
check IQE-CMP-008 a4.iqe 15 "loop cleared"
variant '/^animation/,$d' a5.iqe
run compare "$work/a5.iqe" "$work/a.iqe"
expect_rc 1 "animation missing"
expect_grep out "error\[IQE-CMP-004\]: 0 animations here, .*a.iqe has 1"
{ base | sed '/^animation/,$d'; printf 'mesh "extra"\nvp 0 0 5\nvp 1 0 5\nvp 0 1 5\nfm 0 1 2\n'; base | sed -n '/^animation/,$p'; } >"$work/m1.iqe"
run compare "$work/m1.iqe" "$work/a.iqe"
expect_rc 1 "extra mesh"
expect_grep out "error\[IQE-CMP-010\]: 2 meshes here"
expect_grep out "error\[IQE-CMP-011\]: model has 6 \(6 distinct\) vertices"
expect_grep out "error\[IQE-CMP-012\]: model has 2 \(2 with distinct corners\) triangles"
# a duplicated vertex and the triangle that collapses on it: writers merge and drop those
variant 's/^fm 0 1 2$/vp 0 1 0\nvb 0 0.5 1 0.5\nfm 0 1 3\nfm 2 3 0/' d1.iqe
run compare "$work/d1.iqe" "$work/a.iqe"
expect_rc 0 "duplicate vertex and collapsed triangle compare as distinct counts"
variant 's/^fm 0 1 2$/fm 0 1 2\nfm 2 1 0/' t1.iqe
check IQE-CMP-012 t1.iqe 6 "extra triangle"
printf 'not a model\n' >"$work/junk.bin"
run compare "$work/junk.bin" "$work/a.iqe"
expect_rc 1 "unreadable side"
expect_grep out "error\[IQE-CMP-013\]: .*junk.bin could not be decoded"

# usage
run compare "$work/a.iqe"
expect_rc 2 "one file"

# the real exporter pair, when the samples are present
if [ -f "$SAMPLES/iqm/bend_box.iqe" ] && [ -f "$SAMPLES/iqm/bend_box.iqm" ]; then
  run compare "$SAMPLES/iqm/bend_box.iqe" "$SAMPLES/iqm/bend_box.iqm"
  expect_rc 0 "bend_box pair"
  expect_grep out "every pose within bound"
fi
finish
