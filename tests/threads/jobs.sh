#!/bin/sh
# jobs.sh - `mdlcheck -j 8` reports what `-j 1` reports, byte for byte (JSON and text), over the
# examples, the samples (where ../shared/samples is there) and Eggs full of misplaced keywords,
# whose messages the Egg grammar builds while other files decode (a shared buffer there made
# every -j 8 report differ).
set -u
: "${srcdir:=.}"
: "${top_builddir:=.}"
mdl=${MDLCHECK:-$top_builddir/validator/mdlcheck}
[ -x "$mdl" ] || { echo "no $mdl" >&2; exit 99; }
samples=${MDL_SAMPLES:-$srcdir/../shared/samples}
work=$(mktemp -d "${TMPDIR:-/tmp}/mdl-jobs.XXXXXX") || exit 99
trap 'rm -rf "$work"' EXIT

mkdir "$work/eggs" || exit 99
# 16 Eggs, each with 6000 keywords where the grammar does not take them, of several kinds
i=0
while [ $i -lt 16 ]; do
  awk -v seed=$i 'BEGIN {
    split("<Vertex> 0 { 0 0 0 }|<Joint> j { }|<Scalar> s { 1 }|<Table> t { }|<Bundle> b { }|<UV> { 0 0 }|<Dart> { 1 }|<Polygon> { }", kw, "|")
    print "<CoordinateSystem> { Z-up }"
    print "<Texture> tex { \"a.png\" }"
    print "<Group> g {"
    for (k = 0; k < 6000; k++) print "  <VertexPool> p" k " { " kw[(k + seed) % 8 + 1] " }"
    print "}"
  }' >"$work/eggs/misplaced$i.egg" || exit 99
  i=$((i + 1))
done
set -- "$srcdir/examples" "$work/eggs"
if [ -d "$samples" ]; then
  set -- "$@" "$samples"
else
  echo "jobs: $samples is absent: the samples are skipped"
fi

rc=0
for fmt in json text; do
  "$mdl" --no-config --max-per-rule=0 -f $fmt -j 1 "$@" >"$work/one.$fmt" 2>"$work/one.err"
  r1=$?
  "$mdl" --no-config --max-per-rule=0 -f $fmt -j 8 "$@" >"$work/eight.$fmt" 2>"$work/eight.err"
  r8=$?
  if [ "$r1" -ne "$r8" ]; then
    echo "FAIL: -f $fmt: -j 1 exits $r1, -j 8 exits $r8" >&2
    rc=1
  fi
  if ! cmp -s "$work/one.$fmt" "$work/eight.$fmt"; then
    echo "FAIL: -f $fmt: the -j 8 report differs from the -j 1 report:" >&2
    diff "$work/one.$fmt" "$work/eight.$fmt" | head -n 10 >&2
    rc=1
  fi
  [ "$r1" -le 1 ] || { echo "FAIL: -j 1 exits $r1" >&2; cat "$work/one.err" >&2; rc=1; }
done
grep -q 'may appear in' "$work/one.text" || { echo "FAIL: no placement message in the report" >&2; rc=1; }
[ "$rc" -eq 0 ] && echo "jobs: -j 8 reports equal -j 1 reports ($(grep -c 'may appear in' "$work/one.text") placement messages)"
exit "$rc"
