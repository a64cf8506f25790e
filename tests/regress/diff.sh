#!/bin/sh
# mdlcheck diff OLD.json NEW.json: new, fixed and changed diagnostics per file, as text, JSON and
# Markdown; exit 1 when a new error appears, 0 otherwise, 2 on a report it cannot read.
. "${srcdir:-.}/tests/regress/regress-lib.sh"

mkdir tree
cp "$SRC/corpus/iqm/base/anim.iqm" tree/a.iqm
cp "$SRC/corpus/iqm/base/static.iqm" tree/b.iqm
case_input iqm/skeleton/IQM-JNT-002-t01-fail.yaml tree/c.iqm   # error + warning
run -f json -o old.json tree
expect_rc 1

# a rule newly failing: b.iqm breaks (IQM-JNT-001, an error, and a warning); c.iqm is fixed
case_input iqm/skeleton/IQM-JNT-001-t01-fail.yaml tree/b.iqm
cp "$SRC/corpus/iqm/base/anim.iqm" tree/c.iqm
run -f json -o new.json tree
expect_rc 1

run diff old.json new.json
expect_rc 1 "a new error"
expect_same out "$(cat <<'TXT'
new      tree/b.iqm:1044: error[IQM-JNT-001]: joints[1].parent is 3; expected < 3 (the number of joints) [joints[1].parent]
new      tree/b.iqm:1224: warning[IQM-POS-002]: poses[1].parent is 0; expected 3 (joints[1].parent) [poses[1].parent]
fixed    tree/c.iqm:1044: error[IQM-JNT-002]: joints[1].parent is 2 (a cycle: no root above it); expected < 1 (its own index) or -1 [joints[1].parent]
fixed    tree/c.iqm:1224: warning[IQM-POS-002]: poses[1].parent is 0; expected 2 (joints[1].parent) [poses[1].parent]
diff: 2 new (1 error or fatal), 2 fixed, 0 changed
TXT
)"

# the other way round only fixes (b) and adds back c's problems: new errors again
run diff new.json old.json
expect_rc 1
expect_count out '^new      tree/c\.iqm:' 2
expect_count out '^fixed    tree/b\.iqm:1044: error\[IQM-JNT-001\]' 1

# a report against itself: nothing
run diff old.json old.json
expect_rc 0 "no change"
expect_same out "diff: 0 new (0 errors or fatal), 0 fixed, 0 changed"

# only fixes: exit 0
"$PYTHON" - old.json fixed.json <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
for f in r["files"]:
    f["messages"] = [m for m in f["messages"] if m["id"] != "IQM-JNT-002"]
json.dump(r, open(sys.argv[2], "w"))
PY
run diff old.json fixed.json
expect_rc 0 "only a fix"
expect_count out '^fixed    tree/c\.iqm:1044: error\[IQM-JNT-002\]' 1
expect_count out '^diff: 0 new \(0 errors or fatal\), 1 fixed, 0 changed$' 1

# changed: same key, another severity (warning -> error gates) or another message (does not)
case_input iqm/skeleton/IQM-JNT-002-t01-fail.yaml tree/c.iqm
run --severity=IQM-POS-002=error -f json -o raised.json tree/c.iqm
run -f json -o plain.json tree/c.iqm
run diff plain.json raised.json
expect_rc 1 "a warning became an error"
expect_same out "$(cat <<'TXT'
changed  tree/c.iqm:1224: warning -> error[IQM-POS-002]: poses[1].parent is 0; expected 2 (joints[1].parent) [poses[1].parent]
diff: 0 new (1 error or fatal), 0 fixed, 1 changed
TXT
)"
run diff raised.json plain.json
expect_rc 0 "an error became a warning"
expect_count out '^changed  tree/c\.iqm:1224: error -> warning\[IQM-POS-002\]' 1

# moved data (other offsets) is no change; another message is
"$PYTHON" - plain.json moved.json <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
for m in r["files"][0]["messages"]:
    m["offset"] += 8
    if m["id"] == "IQM-POS-002":
        m["message"] = "poses[1].parent is 3; expected 2 (joints[1].parent)"
json.dump(r, open(sys.argv[2], "w"))
PY
run diff plain.json moved.json
expect_rc 0 "a changed message is not a new error"
expect_same out "$(cat <<'TXT'
changed  tree/c.iqm:1232: warning[IQM-POS-002]: poses[1].parent is 3; expected 2 (joints[1].parent) (was: poses[1].parent is 0; expected 2 (joints[1].parent)) [poses[1].parent]
diff: 0 new (0 errors or fatal), 0 fixed, 1 changed
TXT
)"

# count-aware: one key twice in NEW, once in OLD -> one new
"$PYTHON" - plain.json twice.json <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
msgs = r["files"][0]["messages"]
msgs.append(dict(msgs[0]))
json.dump(r, open(sys.argv[2], "w"))
PY
run diff plain.json twice.json
expect_rc 1
expect_count out '^new      tree/c\.iqm:1044: error\[IQM-JNT-002\]' 1
expect_count out '^diff: 1 new \(1 error or fatal\), 0 fixed, 0 changed$' 1

# fold summaries (compare reports made with the same --max-per-rule): a summary that now
# stands for more errors gates, one that stands for fewer does not
case_input iqm/vertex/IQM-VA-008-t02-fail.yaml huge.iqm    # 8 errors of one rule
run --max-per-rule=3 -f json -o fold5.json huge.iqm
"$PYTHON" - fold5.json fold4.json <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
for m in r["files"][0]["messages"]:
    if m.get("folded") == 5:
        m["folded"] = 4
        m["message"] = "4 more diagnostics of this rule were folded"
json.dump(r, open(sys.argv[2], "w"))
PY
run diff fold4.json fold5.json
expect_rc 1 "a fold summary of more errors"
expect_same out "$(cat <<'TXT'
changed  huge.iqm: error[IQM-VA-008]: 5 more diagnostics of this rule were folded; the first at offsets 48, 48, 48, 48, 48 (was: 4 more diagnostics of this rule were folded)
diff: 0 new (1 error or fatal), 0 fixed, 1 changed
TXT
)"
run diff fold5.json fold4.json
expect_rc 0 "a fold summary of fewer errors"
expect_count out '^changed  huge\.iqm: error\[IQM-VA-008\]: 4 more' 1

# Markdown and JSON
run diff -f markdown old.json new.json
expect_rc 1
expect_same out "$(cat <<'TXT'
**2 new** (1 error or fatal), 2 fixed, 0 changed

| Change | File | Rule | Severity | Path | Message |
| --- | --- | --- | --- | --- | --- |
| new | `tree/b.iqm` | IQM-JNT-001 | error | `joints[1].parent` | joints[1].parent is 3; expected &lt; 3 (the number of joints) |
| new | `tree/b.iqm` | IQM-POS-002 | warning | `poses[1].parent` | poses[1].parent is 0; expected 3 (joints[1].parent) |
| fixed | `tree/c.iqm` | IQM-JNT-002 | error | `joints[1].parent` | joints[1].parent is 2 (a cycle: no root above it); expected &lt; 1 (its own index) or -1 |
| fixed | `tree/c.iqm` | IQM-POS-002 | warning | `poses[1].parent` | poses[1].parent is 0; expected 2 (joints[1].parent) |
TXT
)"
run diff --format=json old.json new.json
expect_rc 1
checks=$((checks + 1))
"$PYTHON" - out <<'PY' || fail "diff JSON"
import json, sys
d = json.load(open(sys.argv[1]))
assert d["summary"] == {"new": 2, "new_errors": 1, "fixed": 2, "changed": 0, "unchecked": 0}, d["summary"]
kinds = [(c["kind"], c["file"], c["id"], c["path"]) for c in d["changes"]]
assert kinds == [("new", "tree/b.iqm", "IQM-JNT-001", "joints[1].parent"),
                 ("new", "tree/b.iqm", "IQM-POS-002", "poses[1].parent"),
                 ("fixed", "tree/c.iqm", "IQM-JNT-002", "joints[1].parent"),
                 ("fixed", "tree/c.iqm", "IQM-POS-002", "poses[1].parent")], kinds
assert d["changes"][0]["after"]["offset"] == 1044 and "before" not in d["changes"][0]
assert d["changes"][2]["before"]["severity"] == "error" and "after" not in d["changes"][2]
PY

# a file NEW could not check to its end (the memory bound: MDL-MEM-002, exit 3) is not fixed:
# what only OLD has there is "unchecked", in every format, and never counted as fixed
cp "$SRC/examples/broken.iqe" broken.iqe
run -f json -o checked.json broken.iqe
expect_rc 1
run --max-memory=1K -f json -o stopped.json broken.iqe
expect_rc 3 "stopped by the memory bound"
run diff checked.json stopped.json
expect_rc 1 "a new fatal"
expect_count out '^fixed ' 0
expect_count out '^unchecked broken\.iqe:26:8: error\[IQE-FAC-001\]' 1
expect_count out '^new      broken\.iqe: fatal\[MDL-MEM-002\]' 1
expect_count out '^diff: 1 new \(1 error or fatal\), 0 fixed, 0 changed, 4 unchecked \(not seen by the new check: stopped, cut at --max-issues or not run\)$' 1
run diff -f markdown checked.json stopped.json
expect_count out '^\*\*1 new\*\* \(1 error or fatal\), 0 fixed, 0 changed, 4 unchecked' 1
expect_count out '^\| unchecked \| `broken\.iqe` \| IQE-FAC-001 ' 1
run diff -f json checked.json stopped.json
checks=$((checks + 1))
"$PYTHON" - out <<'PY' || fail "diff JSON of an unchecked file"
import json, sys
d = json.load(open(sys.argv[1]))
assert d["summary"] == {"new": 1, "new_errors": 1, "fixed": 0, "changed": 0, "unchecked": 4}, d["summary"]
assert sorted(c["kind"] for c in d["changes"]) == ["new"] + ["unchecked"] * 4, d["changes"]
PY
# the other way round: NEW checked to the end, so what it no longer has is fixed
run diff stopped.json checked.json
expect_count out '^fixed    broken\.iqe: fatal\[MDL-MEM-002\]' 1

# NEW kept only its first message (--max-issues: "truncated") or has no entry for the file (review
# B): what only OLD has is unchecked there too, never fixed
run -f json --max-issues=1 -o cut.json broken.iqe
run diff checked.json cut.json
expect_count out '^fixed ' 0
expect_count out '^unchecked broken\.iqe' 3
cp "$SRC/examples/broken.egg" broken.egg
run -f json -o two.json broken.iqe broken.egg
run diff two.json checked.json
expect_count out '^fixed ' 0
expect_count out '^unchecked broken\.egg' 3

# unreadable or invalid input: 2
run diff old.json missing.json
expect_rc 2 "missing report"
printf '{"tool": {"name": "mdlcheck"}, "files": [' >broken.json
run diff broken.json new.json
expect_rc 2 "not JSON"
expect_count err '^mdlcheck: diff: broken\.json:1:[0-9]+: not valid JSON' 1
printf '{"tool": {"name": "mdlcheck"}, "files": [{"path": "x", "format": "iqm", "version": "2", "verdict": "valid", "messages": [{"id": 5}]}]}' >wrong.json
run diff wrong.json new.json
expect_rc 2 "wrong types"
expect_count err 'files\[0\]\.messages\[0\]: "id" is not a string' 1
run diff old.json
expect_rc 2 "one report"
run diff -f sarif old.json new.json
expect_rc 2 "no SARIF diff"

finish
