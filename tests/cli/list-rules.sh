#!/bin/sh
# --list-rules (and the `rules` subcommand) in text and JSON.
. "${srcdir:-.}/tests/cli/cli-lib.sh"

run --list-rules
expect_rc 0 "--list-rules"
cp "$work/out" "$work/rules.txt"
for id in MDL-FMT-001 MDL-IO-001 MDL-CFG-001 MDL-CFG-002 MDL-CFG-003 MDL-CFG-004 IQM-HDR-001; do
  expect_grep out "^$id +(fatal|error|warning|info|hint) +[a-z0-9]+ +[^ ]" "$id is not listed"
done
# one rule per line, every line a rule, no id twice
expect_no_grep out '^[^A-Z]' "a line that is not a rule"
dups=$(awk '{print $1}' "$work/out" | sort | uniq -d)
[ -z "$dups" ] || fail "ids listed twice: $dups"
nrules=$(wc -l <"$work/out")
[ "$nrules" -ge 8 ] || fail "only $nrules rules listed"

run rules
expect_rc 0 "rules subcommand"
cmp -s "$work/out" "$work/rules.txt" || fail "'rules' and '--list-rules' differ"

run --list-rules --format=json
expect_rc 0 "--list-rules --format=json"
cp "$work/out" "$work/rules.json"
if [ -x "$PYTHON" ]; then
  "$PYTHON" - "$work/rules.json" "$nrules" <<'PY' || fail "JSON rule list"
import json, re, sys
doc = json.load(open(sys.argv[1]))
assert doc["tool"]["name"] == "mdlcheck", doc["tool"]
rules = doc["rules"]
assert len(rules) == int(sys.argv[2]), (len(rules), sys.argv[2])
ids = [r["id"] for r in rules]
assert len(set(ids)) == len(ids), "duplicate ids"
for r in rules:
    assert re.fullmatch(r"[A-Z0-9]+-[A-Z0-9]+-[0-9]{3}", r["id"]), r["id"]
    assert r["severity"] in ("fatal", "error", "warning", "info", "hint"), r
    assert r["strict_severity"] in ("fatal", "error", "warning", "info", "hint"), r
    for key in ("name", "format", "versions", "source", "text", "message", "rationale"):
        assert isinstance(r[key], str) and r[key], (r["id"], key)
cfg = {r["id"]: r for r in rules if r["id"].startswith("MDL-CFG-")}
assert sorted(cfg) == ["MDL-CFG-001", "MDL-CFG-002", "MDL-CFG-003", "MDL-CFG-004", "MDL-CFG-005"], sorted(cfg)
assert all(r["format"] == "core" for r in cfg.values())
PY
else
  expect_grep out '"id": "MDL-CFG-004"'
fi

finish
