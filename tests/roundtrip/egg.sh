#!/bin/sh
# Egg geometry end to end: an egg's meshes reach IQM/IQE/X42 (what assimp loads), and IQM/IQE
# samples written as egg validate with no error and no warning. Run by make check (exit 77
# when the samples are absent).
set -u
MDLCHECK=${MDLCHECK:-./validator/mdlcheck}
SAMPLES=${srcdir:-.}/../shared/samples
tmp=$(mktemp -d "${TMPDIR:-/tmp}/mdl-egg.XXXXXX") || exit 99
trap 'rm -rf "$tmp"' EXIT
fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }
[ -f "$SAMPLES/egg/p3d_box.egg" ] || { echo "no samples"; exit 77; }

# the box: 6 quads -> 12 triangles on 24 vertices, in every binary/text target
"$MDLCHECK" convert "$SAMPLES/egg/p3d_box.egg" "$tmp/box.iqm" >/dev/null || fail "convert box.egg box.iqm"
"$MDLCHECK" convert "$tmp/box.iqm" "$tmp/box.iqe" >/dev/null || fail "convert box.iqm box.iqe"
n=$(grep -c '^fm ' "$tmp/box.iqe")
[ "$n" = 12 ] || fail "box.egg -> iqm -> iqe has $n triangles, expected 12"
n=$(grep -c '^vp ' "$tmp/box.iqe")
[ "$n" = 24 ] || fail "box.egg -> iqm -> iqe has $n vertices, expected 24"
"$MDLCHECK" convert "$SAMPLES/egg/p3d_box.egg" "$tmp/box.x42" >/dev/null || fail "convert box.egg box.x42"
if command -v assimp >/dev/null 2>&1; then
  assimp info "$tmp/box.iqm" >"$tmp/assimp" 2>&1 || fail "assimp cannot load box.iqm"
  grep -q 'Faces: *12$' "$tmp/assimp" || fail "assimp sees no 12 faces in box.iqm"
fi

# a skinned character: its memberships become blend weights
"$MDLCHECK" convert "$SAMPLES/egg/p3d_panda-model.egg" "$tmp/panda.iqe" >/dev/null || fail "convert panda-model"
grep -q '^vb ' "$tmp/panda.iqe" || fail "panda-model.egg -> iqe has no blend weights"

# IQM/IQE -> egg: valid, no warning, and the joints keep their names; the proof passes but for
# the loop flag, which egg has no field for
for f in "$SAMPLES"/iqm/*.iqm "$SAMPLES"/iqm/*.iqe; do
  [ -f "$f" ] || continue
  out="$tmp/$(basename "$f").egg"
  "$MDLCHECK" convert --accept-loss=MDL-CMP-008 "$f" "$out" >"$tmp/out" 2>&1 || { fail "convert $f to egg"; cat "$tmp/out"; continue; }
  "$MDLCHECK" validate "$out" >"$tmp/out" 2>&1 || fail "$out does not validate"
  grep -q ' 0 errors, 0 warnings' "$tmp/out" || { fail "$out: warnings"; head "$tmp/out"; }
  grep -q '<Dart> { 1 }' "$out" || fail "$out: no character"
  grep -q '<Bundle>' "$out" || fail "$out: no animation"
done
[ "$fails" = 0 ]
