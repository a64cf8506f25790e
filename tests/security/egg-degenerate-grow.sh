#!/bin/sh
# Issue 26 item 1: a degenerate Egg polygon (a repeated vertex: only a warning) arriving just as
# the geometry builder's triangle buffer had to grow made it keep the freed block (a write after
# free: SIGSEGV or a glibc heap abort in poses, convert and compare), and a first triangle that
# was degenerate gave a valid file a false "out of memory". Validation alone never builds the
# geometry, so every subcommand that does is run here, and converted to every format.
# Also the audit of the other grow sites: a pool referenced before its definition, as the 32nd
# pool name, made the reference check read and write an entry of a map that had just moved
# (found by valgrind or ASan; the valgrind pass runs where valgrind is installed).
. "${srcdir:-.}/tests/cli/cli-lib.sh"

# egg N MODE: N polygons over one pool (normals and UVs, so that every writer keeps them);
# MODE alt: every other polygon degenerate (one of them meets each growth of the buffer),
# MODE first: only the first one.
egg()
{
  awk -v n="$1" -v mode="$2" 'BEGIN {
    print "<CoordinateSystem> { Z-up }\n<Group> m {\n  <VertexPool> p {"
    for (i = 0; i < n + 2; i++)
      printf "    <Vertex> %d { %d %d 0 <Normal> { 0 0 1 } <UV> { %d %d } }\n", i, i, i % 2, i, i % 2
    print "  }"
    for (i = 0; i < n; i++)
      if ((mode == "first" && i == 0) || (mode == "alt" && i % 2 == 1))
        printf "  <Polygon> { <VertexRef> { %d %d %d <Ref> { p } } }\n", i, i, i + 1
      else
        printf "  <Polygon> { <VertexRef> { %d %d %d <Ref> { p } } }\n", i, i + 1, i + 2
    print "}"
  }'
}

# file TRIANGLES: every entry point that builds the geometry, each answering in full
check()
{
  _f=$1 _tris=$2
  run "$_f"
  expect_rc 0 "$_f validates with warnings only"
  expect_grep out 'EGG-VTX-009' "$_f: the repeated vertex is reported"
  run poses "$_f"
  expect_rc 0 "poses $_f"
  for _fmt in iqm iqe egg qmsh x42; do
    _out=$work/$(basename "$_f" .egg).out.$_fmt
    run convert "$_f" "$_out"
    expect_rc 0 "convert $_f to $_fmt"
    expect_grep out " $_tris triangles\)" "convert to $_fmt: $_tris triangles proved"
    expect_no_grep err 'out of memory' "convert to $_fmt: no false out of memory"
    run compare "$_f" "$_out"
    expect_rc 0 "compare $_f with its $_fmt"
    expect_grep out " $_tris triangles matched" "compare with $_fmt: $_tris triangles"
  done
}

egg 600 alt >"$work/alt.egg"
check "$work/alt.egg" 300
egg 40 first >"$work/first.egg"
check "$work/first.egg" 39

# 31 pools referenced after their definition, then a 32nd referenced before it
awk 'BEGIN {
  print "<CoordinateSystem> { Z-up }"
  for (i = 0; i < 31; i++)
    printf "<VertexPool> p%d { <Vertex> 0 { 0 0 0 } <Vertex> 1 { 1 0 0 } <Vertex> 2 { 0 1 0 } }\n", i
  for (i = 0; i < 32; i++)
    printf "<Polygon> { <VertexRef> { 0 1 2 <Ref> { p%d } } }\n", i
  printf "<Polygon> { <VertexRef> { 0 1 2 <Ref> { p31 } } }\n"
  printf "<VertexPool> p31 { <Vertex> 0 { 0 0 0 } <Vertex> 1 { 1 0 0 } <Vertex> 2 { 0 1 0 } }\n"
}' >"$work/forward.egg"
run "$work/forward.egg"
expect_rc 0 "forward.egg validates with a warning"
expect_grep out 'EGG-REF-012' "forward.egg: the later pool is reported"

# The same under valgrind where it is (a sanitizer build checks every run above already): a
# write after free that happens not to crash is still one.
if [ -z "${SAN_CFLAGS:-}" ] && command -v valgrind >/dev/null 2>&1; then
  for args in "$work/forward.egg" "poses $work/alt.egg" "poses $work/first.egg" \
    "convert $work/alt.egg $work/vg.iqm"; do
    # shellcheck disable=SC2086
    if ! valgrind -q --error-exitcode=99 "$MDLCHECK" $args >/dev/null 2>"$work/vg"; then
      fail "valgrind: mdlcheck $args"
      sed 's/^/  valgrind: /' "$work/vg" | head -20 >&2
    fi
  done
fi
finish
