#!/bin/sh
# --baseline: a tree whose problems are all recorded passes; a newly broken file, or one more
# occurrence of a recorded problem, fails; matching ignores offsets; fold summaries match.
. "${srcdir:-.}/tests/regress/regress-lib.sh"

mkdir tree
cp "$SRC/corpus/iqm/base/anim.iqm" "$SRC/corpus/iqm/base/static.iqm" tree/
case_input iqm/skeleton/IQM-JNT-002-t01-fail.yaml tree/cycle.iqm   # 1 error, 1 warning
case_input iqm/vertex/IQM-VA-008-t02-fail.yaml tree/huge.iqm       # 8 x one key, 1 warning
case_input iqm/skeleton/IQM-JNT-001-t01-fail.yaml new-break.iqm

# the legacy tree, recorded
# every occurrence is kept (no folding) until section 6
run --max-per-rule=0 -f json -o base.json tree
expect_rc 1 "the tree has old problems"

# 1. everything recorded: exit 0, and each recorded diagnostic is marked, not counted
run --max-per-rule=0 --baseline base.json tree
expect_rc 0 "all problems are in the baseline"
expect_count out '\(baselined\)$' 11 "baselined text lines"
expect_count out '^tree/(cycle|huge)\.iqm: valid iqm 2: 0 errors, 0 warnings$' 2
run --max-per-rule=0 --baseline=base.json -f json tree
expect_rc 0
expect_count out '"baselined": true' 11 "baselined in JSON"
expect_count out '"verdict": "invalid"' 0
# and the report with "baselined" still follows spec/report.schema.json
if "$PYTHON" -c 'import jsonschema' 2>/dev/null; then
  checks=$((checks + 1))
  "$PYTHON" -c 'import json, sys, jsonschema; jsonschema.validate(json.load(open(sys.argv[2])), json.load(open(sys.argv[1])))' \
    "$SRC/spec/report.schema.json" out || fail "a --baseline JSON report breaks spec/report.schema.json"
fi
run --max-per-rule=0 --baseline base.json -f github tree
expect_rc 0
expect_count out '^::' 0 "annotations for baselined diagnostics"

# the same tree named another way (./tree/) still matches
run --max-per-rule=0 --baseline base.json ./tree/
expect_rc 0 "./tree/ against a baseline of tree"

# 2. a newly broken file fails, and only its diagnostics are new
cp new-break.iqm tree/
run --max-per-rule=0 --baseline base.json tree
expect_rc 1 "a newly broken file"
expect_count out '^tree/new-break\.iqm:[0-9]+: error\[IQM-JNT-001\]: .*[^)]$' 1 "new error, not baselined"
expect_count out '^tree/new-break\.iqm: invalid iqm 2' 1
expect_count out '^tree/cycle\.iqm: valid iqm 2' 1
new_diags=$(grep -c '^tree/new-break.iqm:[0-9]' out)
run --max-per-rule=0 --baseline base.json -f github tree
expect_count out '^::error file=tree/new-break\.iqm,title=IQM-JNT-001::' 1
expect_count out '^::' "$new_diags" "annotations = new diagnostics only"
rm tree/new-break.iqm

# 3. an old problem breaks the same field of another file: that file is new
cp tree/cycle.iqm tree/cycle2.iqm
run --max-per-rule=0 --baseline base.json tree
expect_rc 1 "a copy of a recorded problem in another file"
expect_count out '^tree/cycle2\.iqm:1044: error\[IQM-JNT-002\]: .*\[joints\[1\]\.parent\]$' 1
rm tree/cycle2.iqm

# 4. matching is by file, rule and structural path, not offset or line: move every recorded
#    offset and the tree still passes
"$PYTHON" - base.json moved.json <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
for f in r["files"]:
    for m in f["messages"]:
        if "offset" in m:
            m["offset"] += 4
json.dump(r, open(sys.argv[2], "w"))
PY
run --max-per-rule=0 --baseline moved.json tree
expect_rc 0 "offsets moved in the baseline"

# 5. count-aware: a baseline with 5 of huge.iqm's 8 IQM-VA-008 (same path each) leaves 3 new
"$PYTHON" - base.json five.json <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
for f in r["files"]:
    if f["path"].endswith("huge.iqm"):
        keep, seen = [], 0
        for m in f["messages"]:
            if m["id"] == "IQM-VA-008":
                seen += 1
                if seen > 5:
                    continue
            keep.append(m)
        f["messages"] = keep
json.dump(r, open(sys.argv[2], "w"))
PY
run --max-per-rule=0 --baseline five.json tree
expect_rc 1 "3 occurrences more than the baseline recorded"
expect_count out '^tree/huge\.iqm:48: error\[IQM-VA-008\]: .*\[header\.num_vertexes\]$' 3 "new occurrences"
expect_count out '^tree/huge\.iqm:48: error\[IQM-VA-008\]: .*\(baselined\)$' 5 "baselined occurrences"
expect_count out '^tree/huge\.iqm: invalid iqm 2: 3 errors, 0 warnings$' 1

# 6. fold summaries: a summary matches one that folded at least as many
run --max-per-rule=2 -f json -o fold.json tree
expect_rc 1
run --max-per-rule=2 --baseline fold.json tree
expect_rc 0 "same folding"
expect_count out '^tree/huge\.iqm: error\[IQM-VA-008\]: 6 more diagnostics of this rule were folded(; the first at [^(]*)? \(baselined\)$' 1
run --max-per-rule=1 --baseline fold.json tree
expect_rc 1 "a summary folding more than the baseline's"
expect_count out '^tree/huge\.iqm: invalid iqm 2: 7 errors, 0 warnings$' 1

# 7. an unusable baseline is a usage error, before anything is validated
echo '{"files": []}' >bad.json
run --baseline bad.json tree
expect_rc 2 "not an mdlcheck report"
expect_count err '^mdlcheck: cannot use baseline: bad\.json: not an mdlcheck JSON report' 1
run --baseline missing.json tree
expect_rc 2 "missing baseline"
printf '{"tool": {"name": "mdlcheck"}, "files": [{"path": "a"}]}' >short.json
run --baseline short.json tree
expect_rc 2 "a file entry without its keys"
expect_count err 'files\[0\]: "format" is missing' 1

finish
