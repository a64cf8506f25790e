#!/bin/sh
# iqe-tangents.sh - an IQE with normals and texture coordinates but no `vx` converts to an IQM
# carrying the tangents the reference compiler generates (iqm-notes.md: generated data): per
# vertex, the texture-space u direction summed over its triangles, made perpendicular to the
# normal and normalised, w the sign of the bitangent against normal x tangent. The values are
# read back from the IQM (converted to IQE, where they are `vx` lines) and checked against
# numbers worked by hand below; the IQE written from the IQE itself has no `vx` (the compiler
# would misplace them); compare accepts the IQE against its IQM; assimp loads the IQM.
. "${srcdir:-.}/tests/cli/cli-lib.sh"

# quad HEADER NORMAL UV3: a 2 x 1 quad in z = 0 as two triangles (0 2 1) and (0 3 2), every
# normal NORMAL; UV3 the texture coordinates of vertices 0..3 ("u v" each)
quad()
{
  printf '# Inter-Quake Export\n%s' "$1"
  set -- "$2" $3
  n=$1
  shift
  printf 'mesh quad\nvp 0 0 0\nvt %s %s\nvn %s\n' "$1" "$2" "$n"
  printf 'vp 2 0 0\nvt %s %s\nvn %s\n' "$3" "$4" "$n"
  printf 'vp 2 1 0\nvt %s %s\nvn %s\n' "$5" "$6" "$n"
  printf 'vp 0 1 0\nvt %s %s\nvn %s\n' "$7" "$8" "$n"
  printf 'fm 0 2 1\nfm 0 3 2\n'
}

# count_vx FILE X Y Z W: vx lines of FILE equal to (X Y Z W) within 1e-6, as numbers
count_vx()
{
  awk -v x="$2" -v y="$3" -v z="$4" -v w="$5" 'function d(a, b) { return a > b ? a - b : b - a }
    $1 == "vx" && d($2, x) < 1e-6 && d($3, y) < 1e-6 && d($4, z) < 1e-6 && d($5, w) < 1e-6 { n++ }
    END { print n + 0 }' "$1"
}

# through_iqm NAME: NAME.iqe -> NAME.iqm (proven, valid) -> NAME.back.iqe
through_iqm()
{
  run convert "$work/$1.iqe" "$work/$1.iqm"
  expect_rc 0 "convert $1.iqe to IQM"
  run compare "$work/$1.iqe" "$work/$1.iqm"
  expect_rc 0 "compare $1.iqe with its IQM"
  run convert "$work/$1.iqm" "$work/$1.back.iqe"
  expect_rc 0 "convert $1.iqm back to IQE"
}

expect_vx()
{
  _n=$(count_vx "$1" "$3" "$4" "$5" "$6")
  [ "$_n" -eq "$2" ] || fail "$(basename "$1"): $_n vx lines ($3 $4 $5 $6), expected $2"
}

# 1. u along +x, v along +y. Triangle (0 2 1): e1 = p2 - p0 = (2 1 0), e2 = p1 - p0 = (2 0 0),
# (du1 dv1) = (1 1), (du2 dv2) = (1 0): u = e2 dv1 - e1 dv2 = (2 0 0), v = e2 du1 - e1 du2 =
# (0 -1 0); the front e2 x e1 = (0 0 2) and v x u = (0 0 2) agree, so no flip. Triangle (0 3 2)
# gives the same. Every vertex: tangent (1 0 0); n x t = (0 1 0) against v: negative, w = -1.
quad '' '0 0 1' '0 0 1 0 1 1 0 1' >"$work/plain.iqe"
through_iqm plain
expect_vx "$work/plain.back.iqe" 4 1 0 0 -1

# 2. the same with the normal tilted to (0.6 0 0.8): the summed (4 0 0) or (2 0 0) loses its
# part along n: t - n (n . t) is (0.64 0 -0.48) times the length, normalised (0.8 0 -0.6);
# n x t = (0 0.8 0) against v = (0 -1 0): w = -1.
quad '' '0.6 0 0.8' '0 0 1 0 1 1 0 1' >"$work/tilted.iqe"
through_iqm tilted
expect_vx "$work/tilted.back.iqe" 4 0.8 0 -0.6 -1

# 3. texture mirrored in u (u runs along -x). Triangle (0 2 1): (du1 dv1) = (-1 1), (du2 dv2) =
# (-1 0): u = (2 0 0), v = (-2 0 0) + (2 1 0) = (0 1 0); v x u = (0 0 -2) against the front
# (0 0 2): both flip, u = (-2 0 0), v = (0 -1 0); (0 3 2) likewise. Tangent (-1 0 0), n x t =
# (0 -2 0) against v = (0 -1 0): positive, w = +1.
quad '' '0 0 1' '1 0 0 0 0 1 1 1' >"$work/mirrored.iqe"
through_iqm mirrored
expect_vx "$work/mirrored.back.iqe" 4 -1 0 0 1

# 4. vertices the compiler merges share their sums: the quad with its shared corners written
# twice (6 vertices, two equal pairs) has the tangents of the 4-vertex quad. The second triangle's
# texture is stretched (v over 0..2) so its u direction differs from the first's; merged corners
# average both, the others keep their triangle's.
printf '# Inter-Quake Export\nmesh quad\n' >"$work/shared.iqe"
printf '# Inter-Quake Export\nmesh quad\n' >"$work/split.iqe"
for v in '0 0 0|0 0' '2 0 0|1 0' '2 1 0|1 1' '0 1 0|0 2'; do
  printf 'vp %s\nvt %s\nvn 0 0 1\n' "${v%|*}" "${v#*|}" >>"$work/shared.iqe"
done
printf 'fm 0 2 1\nfm 0 3 2\n' >>"$work/shared.iqe"
for v in '0 0 0|0 0' '2 1 0|1 1' '2 0 0|1 0' '0 0 0|0 0' '0 1 0|0 2' '2 1 0|1 1'; do
  printf 'vp %s\nvt %s\nvn 0 0 1\n' "${v%|*}" "${v#*|}" >>"$work/split.iqe"
done
printf 'fm 0 1 2\nfm 3 4 5\n' >>"$work/split.iqe"
through_iqm shared
through_iqm split
# per position, the vx of the 4-vertex quad equals that of every copy in the 6-vertex one
awk '$1 == "vp" { p = $2 " " $3 " " $4 } $1 == "vx" { print p " -> " $2 " " $3 " " $4 " " $5 }' \
  "$work/shared.back.iqe" | sort -u >"$work/shared.vx"
awk '$1 == "vp" { p = $2 " " $3 " " $4 } $1 == "vx" { print p " -> " $2 " " $3 " " $4 " " $5 }' \
  "$work/split.back.iqe" | sort -u >"$work/split.vx"
[ "$(wc -l <"$work/shared.vx")" -eq 4 ] || fail "shared quad: not 4 tangents: $(cat "$work/shared.vx")"
cmp -s "$work/shared.vx" "$work/split.vx" ||
  fail "merged corners do not share tangents: $(cat "$work/shared.vx") / $(cat "$work/split.vx")"
# the corners of one triangle only keep that triangle's direction: (0 0 0) and (2 1 0) do not
grep -q '^2 0 0 -> 1 0 0 -1$' "$work/shared.vx" || fail "corner (2 0 0): $(cat "$work/shared.vx")"

# the IQE written from an IQE without vx has none: the compiler derives them again
run convert "$work/plain.iqe" "$work/plain.again.iqe"
expect_rc 0 "convert plain.iqe to IQE"
expect_no_grep plain.again.iqe '^vx' "the IQE written from an IQE without vx has vx lines"

# no texture coordinates: nothing to derive tangents from, none written (as the compiler)
printf '# Inter-Quake Export\nmesh m\nvp 0 0 0\nvn 0 0 1\nvp 1 0 0\nvn 0 0 1\nvp 0 1 0\nvn 0 0 1\nfm 0 1 2\n' >"$work/notc.iqe"
through_iqm notc
expect_no_grep notc.back.iqe '^vx' "tangents without texture coordinates"

# the shared sample exported by the IQM project's Blender exporter both as IQE (no vx) and as
# IQM (with the tangents its own code derives): ours from the IQE agree with its IQM's, vertex
# for vertex (matched by position, texcoord and normal), to float precision
samples=${MDL_SAMPLES:-$srcdir/../shared/samples}
if [ -f "$samples/iqm/bend_box.iqe" ] && [ -f "$samples/iqm/bend_box.iqm" ]; then
  cp "$samples/iqm/bend_box.iqe" "$work/bend.iqe"
  through_iqm bend
  run convert "$samples/iqm/bend_box.iqm" "$work/bend.ref.iqe"
  expect_rc 0 "convert the sample bend_box.iqm to IQE"
  for f in bend.back bend.ref; do
    awk '$1 == "vp" { p = $2 " " $3 " " $4 } $1 == "vt" { t = $2 " " $3 } $1 == "vn" { n = $2 " " $3 " " $4 }
      $1 == "vx" { print p "|" t "|" n "|" $2 " " $3 " " $4 " " $5 }' "$work/$f.iqe" | sort -u >"$work/$f.vx"
  done
  awk -F'|' 'function d(a, b) { return a > b ? a - b : b - a }
    NR == FNR { ref[$1 "|" $2 "|" $3] = $4; next }
    { k = $1 "|" $2 "|" $3; n++
      if (!(k in ref)) { print "no reference vertex " k; bad++; next }
      split(ref[k], r, " "); split($4, o, " ")
      for (i = 1; i <= 4; i++) if (d(r[i], o[i]) > 1e-6) { print k ": " $4 " against " ref[k]; bad++; break } }
    END { if (n < 39) { print n " tangents, expected 39"; bad++ } exit bad > 0 }' \
    "$work/bend.ref.vx" "$work/bend.back.vx" >"$work/bend.diff" ||
    fail "bend_box tangents differ from the exporter's IQM: $(head -3 "$work/bend.diff")"
else
  echo "note: no shared samples at $samples; bend_box not checked"
fi

if command -v assimp >/dev/null 2>&1; then
  assimp info "$work/tilted.iqm" >"$work/assimp" 2>&1 || fail "assimp cannot load tilted.iqm"
  grep -q 'Faces: *2$' "$work/assimp" || fail "assimp sees no 2 faces in tilted.iqm"
fi
finish
