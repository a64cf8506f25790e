#!/bin/sh
# --target (issue 31): the targets are listed with their loader and source, each rule cites a
# source line, a target adds errors and warnings and never removes the specification's, unknown
# names are usage errors, the configuration's targets: applies, and every report names the
# targets that applied.
. "${srcdir:-.}/tests/cli/cli-lib.sh"

iqm=$srcdir/corpus/iqm/base

run targets
expect_rc 0 "targets"
for t in assimp raylib darkplaces fte tesseract ioq3 daemon panda3d carpg spacetrader; do
  expect_grep out "^$t " "targets lists $t"
done
run targets --format=json
expect_rc 0 "targets --format=json"
cp "$work/out" "$work/targets.json"
run rules --format=json
cp "$work/out" "$work/rules.json"
"$PYTHON" - "$work/targets.json" "$work/rules.json" <<'PY' || fail "targets JSON"
import json, re, sys
targets = json.load(open(sys.argv[1]))["targets"]
rules = {r["id"]: r for r in json.load(open(sys.argv[2]))["rules"]}
assert len(targets) >= 10, len(targets)
for t in targets:
    for k in ("name", "loader", "versions", "repository", "commit", "formats", "run", "rules"):
        assert t.get(k), (t["name"], k)
    assert t["rules"], t["name"]
    for rid in t["rules"]:
        r = rules[rid]
        assert rid.startswith("TGT-" + t["name"].upper() + "-"), rid
        # the repository, the commit, the file and the line it was read from
        assert re.match(re.escape(t["repository"]) + "@" + re.escape(t["commit"]) + r" \S+ line [0-9]+: ", r["source"]), r["source"]
        assert r["basis"] == "loader" and r["format"] == "target", rid
print("targets:", len(targets), "with", sum(len(t["rules"]) for t in targets), "rules")
PY

# an unknown target is a usage error, never a silent pass
run --target=nosuchengine "$iqm/static.iqm"
expect_rc 2 "unknown target"
expect_grep err "nosuchengine" "the unknown name is named"
run --target= "$iqm/static.iqm"
expect_rc 2 "empty target"

# valid by the specification, refused by assimp: an error only under the target
run "$iqm/animonly.iqm"
expect_rc 0 "animation-only IQM, no target"
run --target=assimp "$iqm/animonly.iqm"
expect_rc 1 "animation-only IQM under assimp"
expect_grep out "error\[TGT-ASSIMP-002\]"
expect_grep out "^targets: assimp " "the text report names the target"
# repeated --target adds up; names may be joined by ','
run --target=assimp --target=ioq3,tesseract "$iqm/animonly.iqm"
expect_grep out "TGT-IOQ3-010"
expect_grep out "TGT-TESSERACT-004"
# a target never removes a finding of the specification
run --max-per-rule=0 "$srcdir/examples/broken-parent.iqm"
grep -o '\[IQM-[A-Z]*-[0-9]*\]' "$work/out" | sort >"$work/spec-ids"
run --max-per-rule=0 --target=assimp,raylib,darkplaces,fte,tesseract,ioq3,daemon "$srcdir/examples/broken-parent.iqm"
grep -o '\[IQM-[A-Z]*-[0-9]*\]' "$work/out" | sort >"$work/target-ids"
cmp -s "$work/spec-ids" "$work/target-ids" || fail "targets changed the specification's findings"
[ -s "$work/spec-ids" ] || fail "broken-parent.iqm has no finding to keep"

# the reports say which targets applied
run -f json --target=assimp,fte "$iqm/static.iqm"
expect_rc 0 "JSON under targets"
"$PYTHON" -c 'import json,sys; d=json.load(open(sys.argv[1])); assert [t["name"] for t in d["targets"]] == ["assimp", "fte"], d.get("targets")' "$work/out" ||
  fail "JSON report targets"
run -f sarif --target=ioq3 "$iqm/static.iqm"
"$PYTHON" -c 'import json,sys; d=json.load(open(sys.argv[1])); assert [t["name"] for t in d["runs"][0]["properties"]["targets"]] == ["ioq3"]' "$work/out" ||
  fail "SARIF run properties targets"
run -f json "$iqm/static.iqm"
expect_no_grep out '"targets"' "no targets key without --target"

# the configuration's targets: applies; the command line's --target replaces it
printf 'targets: [assimp]\n' >"$work/mdlcheck.yaml"
run --config="$work/mdlcheck.yaml" "$iqm/animonly.iqm"
expect_rc 1 "targets: from the configuration"
expect_grep out "TGT-ASSIMP-002"
run --config="$work/mdlcheck.yaml" --target=fte "$iqm/animonly.iqm"
expect_rc 0 "--target replaces the configuration's targets"
printf 'targets: [assimp, nosuchengine]\n' >"$work/bad.yaml"
run --config="$work/bad.yaml" "$iqm/static.iqm"
expect_rc 2 "unknown target in the configuration"
expect_grep err "MDL-CFG-" "a configuration diagnostic"

# explain shows the source line
run explain TGT-ASSIMP-002
expect_rc 0 "explain TGT-ASSIMP-002"
expect_grep out "ValidateDataStructure.cpp line 196"
finish
