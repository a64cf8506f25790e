#!/bin/sh
# Issue 26 item 9: compare was quadratic on coincident vertices (40,000 at one position: 95 s):
# B's vertices were looked up by position cell alone, and one cell was scanned whole for each
# vertex of A. Meshes were paired by scanning B's meshes for each of A's (quadratic in the
# number of meshes). Both inputs here took over a minute before (a loaded 2-core machine); near
# linear they take well under a second, so the limit (30 s each, sanitizer builds included)
# only fails a return of the quadratic cost.
. "${srcdir:-.}/tests/cli/cli-lib.sh"
limit=30

# 40,000 vertices at the origin, each with its own texture coordinate; B lists them in reverse
# (so the in-order pass fails and every vertex is looked up)
awk 'BEGIN { n = 40000; print "# Inter-Quake Export\nmesh m"
  for (i = 0; i < n; i++) { print "vp 0 0 0"; printf "vt %.6f 0\n", i / n }
  for (i = 0; i + 2 < n; i += 3) printf "fm %d %d %d\n", i, i + 1, i + 2 }' >"$work/a.iqe"
awk 'BEGIN { n = 40000; print "# Inter-Quake Export\nmesh m"
  for (i = n - 1; i >= 0; i--) { print "vp 0 0 0"; printf "vt %.6f 0\n", i / n }
  for (i = 0; i + 2 < n; i += 3) printf "fm %d %d %d\n", n - 1 - i, n - 2 - i, n - 3 - i }' >"$work/b.iqe"

# 100,000 meshes, B's in reverse order
awk 'BEGIN { print "# Inter-Quake Export"; for (i = 0; i < 100000; i++) printf "mesh m%d\nvp %d 0 0\n", i, i }' >"$work/m.iqe"
awk 'BEGIN { print "# Inter-Quake Export"; for (i = 99999; i >= 0; i--) printf "mesh m%d\nvp %d 0 0\n", i, i }' >"$work/mr.iqe"

timed()
{
  rc=0
  timeout "$limit" "$MDLCHECK" "$@" >"$work/out" 2>"$work/err" || rc=$?
  echo "+ mdlcheck $* -> $rc"
  [ "$rc" -ne 124 ] || fail "mdlcheck $*: not finished in $limit s"
}

timed compare "$work/a.iqe" "$work/b.iqe"
expect_rc 0 "coincident vertices: the same model"
expect_grep out ' 39999 vertices, 13333 triangles matched' "coincident vertices: every used vertex matched"

# one texture coordinate moved: still found, and the report names it
sed 's/^vt 0.500000 0$/vt 0.500100 0/' "$work/b.iqe" >"$work/c.iqe"
timed compare "$work/a.iqe" "$work/c.iqe"
expect_rc 1 "one texture coordinate moved"
expect_grep out 'MDL-CMP-014.*texcoord' "the moved texture coordinate is reported"

timed compare "$work/m.iqe" "$work/mr.iqe"
expect_rc 0 "meshes in another order: the same model"
expect_grep out ' 100000 vertices' "every mesh paired"
finish
