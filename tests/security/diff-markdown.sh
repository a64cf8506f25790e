#!/bin/sh
# Issue 26 item 14: `diff -f markdown` writes job summaries; a message quoting a texture name
# with HTML (<img>, <details>), a Markdown image or link, a backslash before '|' or a backtick
# must read as text in its cell, and every row keep its six cells.
. "$srcdir/tests/cli/cli-lib.sh"

mkdir "$work/t"
"$PYTHON" - "$work/t" <<'PY'
import os, sys
T = (b"<img src=x onerror=alert(1)><details><summary>ok</summary>"
     b"![i](https://e.example/x.png)[click](https://e.example) a\\|b \\`c` &amp; x.png")
open(os.path.join(sys.argv[1], "m.egg"), "wb").write(
    b'<Texture> tex { "' + T + b'" }\n<VertexPool> p { <Vertex> 0 { 0 0 0 } <Vertex> 1 { 1 0 0 }'
    b" <Vertex> 2 { 0 1 0 } }\n<Group> g { <Polygon> { <TRef> { tex } <VertexRef> { 0 1 2 <Ref> { p } } } }\n")
# the file's own name is attacker-chosen too (a code cell)
import shutil; shutil.copy(os.path.join(sys.argv[1], "m.egg"), os.path.join(sys.argv[1], "b`<img src=y>|x.egg"))
PY
run -f json --resources "$work/t"
expect_rc 1 "two missing textures"
cp "$work/out" "$work/new.json"
run -f json --allow-empty "$work/t/none*.egg"
cp "$work/out" "$work/old.json"
run diff -f markdown "$work/old.json" "$work/new.json"
expect_rc 1 "new errors"
"$PYTHON" - "$work/out" <<'PY' || fail "a message's markup reaches the job summary"
import re, sys
rows = [l for l in open(sys.argv[1], encoding="utf-8").read().splitlines() if l.startswith("| new")]
assert len(rows) == 2, rows
for row in rows:
    # cells split where GitHub splits them: at '|' not preceded by a backslash
    cells = re.split(r"(?<!\\)\|", row)[1:-1]
    assert len(cells) == 6, ("cells", cells)
    for c in cells:
        c = c.strip()
        if c.startswith("`"):  # a code span: one, closed at the end, nothing after it
            assert c.endswith("`") and c.count("`") == 2, ("code cell", c)
            continue
        plain = re.sub(r"\\.", "", c)  # what is left after backslash escapes
        for bad in ("<", ">", "](", "`"):
            assert bad not in plain, (bad, c)
        assert re.search(r"&(?!lt;|gt;|amp;)", plain) is None, ("entity", c)
    assert "&lt;img src=x onerror=alert(1)&gt;" in row, row
PY
finish
