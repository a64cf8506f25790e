#!/bin/sh
# iqe-smooth.sh - an IQE without `vn` converts to an IQM that carries the normals the spec's
# smoothing generates (iqe.txt "Smoothing"): the IQM validates with no error, `compare` accepts
# the pair, and the normals read back from the IQM (converted to IQE) are the expected numbers.
# Face-less triangles get the degenerate check of face triangles.
. "${srcdir:-.}/tests/cli/cli-lib.sh"

cube()
{
  printf '# Inter-Quake Export\nmesh cube\n%s' "$1"
  cat <<'EOF'
vp 0 0 0
vp 1 0 0
vp 1 1 0
vp 0 1 0
vp 0 0 1
vp 1 0 1
vp 1 1 1
vp 0 1 1
fa 0 1 2 3
fa 4 7 6 5
fa 0 4 5 1
fa 1 5 6 2
fa 2 6 7 3
fa 3 7 4 0
EOF
}

# count_vn FILE X Y Z: vn lines of FILE equal to (X Y Z) within 1e-6, as numbers
count_vn()
{
  awk -v x="$2" -v y="$3" -v z="$4" 'function d(a, b) { return a > b ? a - b : b - a }
    $1 == "vn" && d($2, x) < 1e-6 && d($3, y) < 1e-6 && d($4, z) < 1e-6 { n++ }
    END { print n + 0 }' "$1"
}

# expect_vn FILE COUNT X Y Z
expect_vn()
{
  _n=$(count_vn "$1" "$3" "$4" "$5")
  [ "$_n" -eq "$2" ] || fail "$(basename "$1"): $_n vn lines ($3 $4 $5), expected $2"
}

for angle in 180 60; do
  cube "smoothgroup 1
smoothangle $angle
" >"$work/cube$angle.iqe"
  run convert "$work/cube$angle.iqe" "$work/cube$angle.iqm"
  expect_rc 0 "convert the cube (smoothangle $angle) to IQM"
  run "$work/cube$angle.iqm"
  expect_rc 0 "the converted IQM validates"
  expect_no_grep out 'error\[' "the converted IQM has errors"
  expect_no_grep out 'no normal' "the converted IQM has no normal array"
  run compare "$work/cube$angle.iqe" "$work/cube$angle.iqm"
  expect_rc 0 "compare the IQE with its IQM (smoothangle $angle)"
  run convert "$work/cube$angle.iqm" "$work/back$angle.iqe"
  expect_rc 0 "convert the IQM back to IQE"
done

# smoothangle 180: 8 vertices, each the average of the unit normals of the triangles there
f=$work/back180.iqe
n=$(grep -c '^vn' "$f")
[ "$n" -eq 8 ] || fail "cube180: $n normals, expected 8"
expect_vn "$f" 1 -0.3333333 -0.6666667 -0.6666667
expect_vn "$f" 1 0.8164966 -0.4082483 -0.4082483
expect_vn "$f" 1 0.6666667 0.3333333 0.6666667
expect_vn "$f" 1 -0.4082483 0.8164966 0.4082483

# smoothangle 60: faceted, every corner split into one vertex per face
f=$work/back60.iqe
n=$(grep -c '^vn' "$f")
[ "$n" -eq 24 ] || fail "cube60: $n normals, expected 24"
for axis in '1 0 0' '-1 0 0' '0 1 0' '0 -1 0' '0 0 1' '0 0 -1'; do
  # shellcheck disable=SC2086
  expect_vn "$f" 4 $axis
done

# a file with vn keeps its own normals: no smoothing
printf '# Inter-Quake Export\nmesh m\nvp 0 0 0\nvn 1 0 0\nvp 1 0 0\nvn 1 0 0\nvp 0 1 0\nvn 1 0 0\nfa 0 1 2\n' >"$work/given.iqe"
run convert "$work/given.iqe" "$work/given2.iqe"
expect_rc 0 "convert an IQE with vn"
expect_vn "$work/given2.iqe" 3 1 0 0

# face-less triangles: a zero-area one is reported at its first vertex's vp line
printf '# Inter-Quake Export\nmesh m\nvp 0 0 0\nvp 1 0 0\nvp 0 1 0\n  vp 0 0 1\nvp 1 0 1\nvp 2 0 1\n' >"$work/faceless.iqe"
run "$work/faceless.iqe"
expect_grep out 'faceless.iqe:6:3: warning\[IQE-FAC-003\]' "degenerate face-less triangle at line 6, column 3"
expect_no_grep out ':3:[0-9]+: warning\[IQE-FAC-003\]' "the proper face-less triangle reported as degenerate"
finish
