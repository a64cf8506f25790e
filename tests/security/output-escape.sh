#!/bin/sh
# Issue 26 item 4: model-derived bytes cannot hijack a CI log or a terminal. Joint, texture and
# file names holding a newline followed by "::error ...", "##[group]", ESC sequences, C1 controls
# and bidirectional overrides go through every subcommand and output format; in every text output
# (stdout and stderr, -f github's stderr too) no line may begin, after blanks, with "::" or "##"
# other than mdlcheck's own annotations, and no control byte but the line end may appear. JSON and
# SARIF must keep the bytes (escaped by JSON) so a reader gets the name back exactly.
. "$srcdir/tests/cli/cli-lib.sh"

# check_clean FILE [github]: FILE ($work/FILE) holds no injected line and no control byte.
check_clean()
{
  "$PYTHON" - "$work/$1" "${2:-text}" "$1" <<'PY' || fail "$cur: $1 carries model bytes raw"
import re, sys
data = open(sys.argv[1], "rb").read()
github = sys.argv[2] == "github"
bad = []
for n, line in enumerate(data.split(b"\n"), 1):
    if re.search(rb"[\x00-\x1f\x7f]", line):
        bad.append("line %d holds a control byte" % n)
    if re.search(rb"\xc2[\x80-\x9f]|\xe2\x80[\xa8-\xae]|\xe2\x81[\xa6-\xa9]", line):
        bad.append("line %d holds a C1 control or a bidi override" % n)
    s = line.lstrip(b" ")
    if s.startswith(b"::") or s.startswith(b"##"):
        if not (github and re.match(rb"::(error|warning|notice) file=", line)):
            bad.append("line %d is a workflow command" % n)
for b in bad:
    print("  %s: %s" % (sys.argv[3], b), file=sys.stderr)
if bad:
    sys.stderr.write("  " + repr(data[:2000]) + "\n")
sys.exit(1 if bad else 0)
PY
}

# srun ARGS...: run, then check both streams
srun()
{
  cur="mdlcheck $*"
  run "$@"
  [ "$rc" -le 3 ] || fail "$cur exited $rc"
  check_clean out
  check_clean err
}

# grun ARGS...: run under -f github: annotations allowed on stdout, stderr stays text
grun()
{
  cur="mdlcheck $*"
  run "$@"
  [ "$rc" -le 3 ] || fail "$cur exited $rc"
  check_clean out github
  check_clean err
}

mkdir "$work/tree"
"$PYTHON" - "$work" <<'PY'
import os, sys
w = sys.argv[1]
J = b"a\n::error title=PWN::joint\x1b[31m\n##[group]g\xc2\x9b\xe2\x80\xae"
T = b"t\n::error title=PWN::tex\x1b]0;x\x07\r##[error]y.png"
def egg(joint, tz):
    return (b'<CoordinateSystem> { Z-up }\n<Texture> tex { "' + T + b'" }\n'
            b"<VertexPool> p {\n  <Vertex> 0 { 0 0 0 }\n  <Vertex> 1 { 1 0 0 }\n  <Vertex> 2 { 0 1 0 }\n}\n"
            b"<Group> actor {\n  <Dart> { 1 }\n"
            b"  <Group> mesh { <Polygon> { <TRef> { tex } <VertexRef> { 0 1 2 <Ref> { p } } } }\n"
            b'  <Joint> "' + joint + b'" { <Transform> { <Translate> { 0 0 ' + tz + b" } }"
            b" <VertexRef> { 0 1 2 <Ref> { p } } }\n}\n")
open(os.path.join(w, "h.egg"), "wb").write(egg(J, b"1"))
open(os.path.join(w, "h2.egg"), "wb").write(egg(J + b"\n::warning::two", b"5"))
# a file name that is itself the attack, and an unreferenced file beside it
name = b"n\n::error title=PWN::file\x1b[2J.egg"
open(os.path.join(w.encode(), b"tree", name), "wb").write(egg(b"root", b"1"))
open(os.path.join(w.encode(), b"tree", b"u\n##[error]unref\x1b[0m.png"), "wb").write(b"x")
os.symlink("..", os.path.join(w.encode(), b"tree", b"l\n::error::loop"))
PY
M=$work/h.egg

for f in text github; do
  r=srun; [ $f = github ] && r=grun
  $r -f $f --resources "$M"
  $r -f $f "$work/tree"
  $r -f $f --unreferenced --resources "$work/tree"
  $r compare -f $f "$M" "$work/h2.egg"
  expect_rc 1 "the joints' names differ"
  $r convert -f $f "$M" "$work/o.iqe"
  expect_rc 1 "IQE cannot hold the joint's name"
  $r -f $f "$work/tree/n
::error title=PWN::nomatch*"
done
srun -q --resources "$M" "$work/tree"
srun poses -f text "$M"
srun convert "$M" "$work/o.iqm"
expect_rc 0 "converting to IQM"
srun compare "$M" "$work/o.iqm"
srun -v --config "$work/tree/n
::error title=PWN::file.yaml" "$M"
run "$work/tree"
expect_grep out 'tree/n\\n::error title=PWN::file\\x1b\[2J\.egg: (in)?valid' "the file name shown escaped"
expect_grep err 'skipped .*tree/l\\n::error::loop' "the skip note names the link escaped"
run poses -f text "$M"
expect_grep out 'joint 0 "a\\n::error title=PWN::joint\\x1b\[31m\\n##\[group\]g\\u009b\\u202e"' "the joint name shown escaped"

# a diff of two reports quoting the names: text and Markdown
run -f json --resources "$M" "$work/tree"
cp "$work/out" "$work/new.json"
run -f json "$work/o.iqm"
cp "$work/out" "$work/old.json"
srun diff "$work/old.json" "$work/new.json"
srun diff -f markdown "$work/old.json" "$work/new.json"

# JSON and SARIF keep the exact bytes for a reader
run -f json --resources "$M"
"$PYTHON" - "$work/out" <<'PY' || fail "JSON lost the name's bytes"
import json, sys
d = json.load(open(sys.argv[1], encoding="utf-8", errors="surrogateescape"))
msgs = [m["message"] for f in d["files"] for m in f["messages"]]
assert any("t\n::error title=PWN::tex\x1b]0;x\x07\r##[error]y.png" in m for m in msgs), msgs
PY
run -f sarif --resources "$M"
grep -q 't\\n::error title=PWN::tex\\u001b\]0;x\\u0007\\r##\[error\]y\.png' "$work/out" ||
  fail "SARIF does not carry the name JSON-escaped"

finish
