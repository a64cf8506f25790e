#!/bin/sh
# SARIF partialFingerprints: a result keeps its fingerprint when an unrelated edit moves it (a
# comment line inserted at the top of an IQE shifts every line), and different results of a run
# never share one.
. "${srcdir:-.}/tests/cli/cli-lib.sh"

cp "$srcdir/examples/broken.iqe" "$work/model.iqe"
run --format=sarif "$work/model.iqe"
expect_rc 1 "broken.iqe"
cp "$work/out" "$work/before.sarif"
{ echo "# Inter-Quake Export"; echo "# an unrelated comment"; sed 1d "$srcdir/examples/broken.iqe"; } >"$work/model.iqe"
run --format=sarif "$work/model.iqe"
expect_rc 1 "broken.iqe with a comment line more"
cp "$work/out" "$work/after.sarif"
# a second file with the same diagnostics: its fingerprints are its own
cp "$srcdir/examples/broken.iqe" "$work/other.iqe"
run --format=sarif "$work/model.iqe" "$work/other.iqe"
cp "$work/out" "$work/two.sarif"

"$PYTHON" - "$work/before.sarif" "$work/after.sarif" "$work/two.sarif" <<'EOF_PY' || fail "fingerprints"
import json, sys

def results(path):
    return json.load(open(path))["runs"][0]["results"]

def key(r):
    loc = r["locations"][0]
    return (r["ruleId"], loc.get("logicalLocations", [{}])[0].get("fullyQualifiedName", ""),
            loc["physicalLocation"].get("region", {}).get("startLine"))

before, after, two = (results(p) for p in sys.argv[1:])
prints = lambda rs: [r["partialFingerprints"]["mdlcheck/v1"] for r in rs]
ok = True
if len(before) < 3 or len(before) != len(after):
    print("expected the same results before and after: %d, %d" % (len(before), len(after)))
    ok = False
moved = sum(1 for a, b in zip(before, after) if key(a)[2] is not None and key(b)[2] == key(a)[2] + 1)
if moved < 2:
    print("the inserted line did not move the results (%d moved): the test proves nothing" % moved)
    ok = False
for a, b in zip(before, after):
    if key(a)[:2] != key(b)[:2] or prints([a]) != prints([b]):
        print("changed: %s %s -> %s %s" % (key(a), prints([a]), key(b), prints([b])))
        ok = False
for name, rs in (("before", before), ("two files", two)):
    if len(set(prints(rs))) != len(rs):
        print("%s: %d results share %d fingerprints" % (name, len(rs), len(set(prints(rs)))))
        ok = False
if len(two) != 2 * len(before) or set(prints(two)) & set(prints(before)) == set():
    print("the first file of the two-file run should keep its fingerprints")
    ok = False
sys.exit(0 if ok else 1)
EOF_PY

finish
