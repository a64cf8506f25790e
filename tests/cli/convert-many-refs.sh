#!/bin/sh
# convert-many-refs.sh - a conversion that drops a model's references announces each file once,
# at the place the model first names it (MDL-CNV-008), however many there are: 60,000 distinct
# external models, each named twice, after an unused texture of one of their names (another kind
# of reference: no first place of a model). The announcements were found by a scan from the list's head
# for each reference (quadratic: about 6 s of CPU here, 16 s for 100,000); a table makes it
# linear. What is checked is the announcements, not the time.
. "$srcdir/tests/cli/cli-lib.sh"

n=60000
"$PYTHON" - "$n" >"$work/refs.egg" <<'PY'
import sys
n = int(sys.argv[1])
print("<CoordinateSystem> { Z-up }")
print("<Texture> t { \"m1.egg\" }")  # unused (no <TRef>), before the first <File> naming m1.egg
print("<VertexPool> p { <Vertex> 0 { 0 0 0 } <Vertex> 1 { 1 0 0 } <Vertex> 2 { 0 1 0 } }")
print("<Group> g { <Polygon> { <VertexRef> { 0 1 2 <Ref> { p } } } }")
for i in range(n):
    print('<File> { "m%d.egg" }' % i)
for i in range(n):
    print('<File> { "m%d.egg" }' % i)
PY
run convert --max-per-rule=0 --accept-loss=MDL-CNV-008 -f json "$work/refs.egg" "$work/refs.iqm"
expect_rc 0 "references dropped, the loss accepted"
"$PYTHON" - "$work/out" "$n" <<'PY' || fail "the announcements of the dropped references"
import json, sys
d = json.load(open(sys.argv[1]))
n = int(sys.argv[2])
out = d["files"][1]
a = [m for m in out["messages"] if m["id"] == "MDL-CNV-008"]
assert len(a) == n, len(a)
# each at its first <File> line: line 5 + i for m{i}.egg
lines = sorted((m["line"], m["message"]) for m in a)
for i, (line, msg) in enumerate(lines):
    assert line == 5 + i and "'m%d.egg'" % i in msg, (i, line, msg)
PY
finish
