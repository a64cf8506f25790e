#!/usr/bin/python3
"""check_reports.py - validate mdlcheck JSON and SARIF reports against spec/*.schema.json and
check what a schema cannot say: ruleIndex and artifact indexes resolve, levels follow
severities, verdicts follow counts and fail_on, and both reports of one run agree.

usage: check_reports.py SPECDIR JSON-REPORT SARIF-REPORT [JSON-REPORT SARIF-REPORT ...]
Exit 77 (skip) when the jsonschema module is missing, 1 on any failure."""
import json
import sys

try:
    import jsonschema
    from jsonschema import Draft202012Validator
except ImportError:
    print("python3-jsonschema is not installed: skipped")
    sys.exit(77)

SEVERITIES = ["fatal", "error", "warning", "info", "hint"]
LEVEL = {"fatal": "error", "error": "error", "warning": "warning", "info": "note", "hint": "note"}


def load(path):
    with open(path, encoding="utf-8") as f:  # strict UTF-8: a report must be valid JSON text
        return json.load(f)


def undocumented(schema, where="#"):
    """Every property a schema declares must say what it is (walks subschemas by keyword, so a
    property that happens to be named "properties" is not mistaken for the keyword)."""
    missing = []
    if not isinstance(schema, dict):
        return missing
    for name, sub in schema.get("properties", {}).items():
        if not isinstance(sub, dict) or "description" not in sub:
            missing.append(f"{where}/properties/{name}")
        missing += undocumented(sub, f"{where}/properties/{name}")
    for key in ("$defs", "dependentSchemas", "patternProperties"):
        for name, sub in schema.get(key, {}).items():
            missing += undocumented(sub, f"{where}/{key}/{name}")
    for key in ("oneOf", "anyOf", "allOf", "prefixItems"):
        for i, sub in enumerate(schema.get(key, [])):
            missing += undocumented(sub, f"{where}/{key}/{i}")
    for key in ("items", "not", "additionalProperties", "if", "then", "else", "contains"):
        if isinstance(schema.get(key), dict):
            missing += undocumented(schema[key], f"{where}/{key}")
    return missing


def validator(path):
    schema = load(path)
    Draft202012Validator.check_schema(schema)
    missing = undocumented(schema)
    assert not missing, f"{path}: properties without a description: {missing}"
    return Draft202012Validator(schema, format_checker=Draft202012Validator.FORMAT_CHECKER)


def validate(v, doc, name):
    errors = sorted(v.iter_errors(doc), key=lambda e: list(e.absolute_path))
    for e in errors[:10]:
        print(f"{name}: {'/'.join(map(str, e.absolute_path))}: {e.message}", file=sys.stderr)
    assert not errors, f"{name} does not match its schema"


def check_json(doc, name):
    fail_on = SEVERITIES.index(doc["fail_on"])
    for f in doc["files"]:
        shown = {s: 0 for s in SEVERITIES}
        for m in f["messages"]:
            if not m.get("baselined"):  # a baselined diagnostic is shown but not counted
                shown[m["severity"]] += m.get("folded", 1)  # a fold summary stands for `folded`
        for s in SEVERITIES:
            if f["truncated"]:
                assert shown[s] <= f["counts"][s], (name, f["path"], s)
            else:
                assert shown[s] == f["counts"][s], (name, f["path"], s, shown[s], f["counts"][s])
        failing = any(f["counts"][s] for s in SEVERITIES[: fail_on + 1])
        unreadable = any(m["id"] == "MDL-IO-001" for m in f["messages"])
        assert f["verdict"] == ("invalid" if failing or unreadable else "valid"), (name, f["path"])


def check_sarif(log, name):
    run = log["runs"][0]
    rules = run["tool"]["driver"]["rules"]
    ids = [r["id"] for r in rules]
    assert len(ids) == len(set(ids)), f"{name}: a rule is described twice"
    used = set()
    for r in run["results"]:
        rule = rules[r["ruleIndex"]]
        assert rule["id"] == r["ruleId"], (name, r["ruleIndex"], r["ruleId"])
        used.add(r["ruleId"])
        assert r["level"] == LEVEL[r["properties"]["severity"]], (name, r["ruleId"])
        loc = r["locations"][0]["physicalLocation"]["artifactLocation"]
        assert run["artifacts"][loc["index"]]["location"]["uri"] == loc["uri"], (name, loc)
    assert used == set(ids), f"{name}: rules listed but never used: {set(ids) - used}"
    for rule in rules:
        assert rule["defaultConfiguration"]["level"] == LEVEL[rule["properties"]["severity"]], rule["id"]


def check_agree(doc, log, name):
    """The JSON report and the SARIF log of the same run say the same things."""
    run = log["runs"][0]
    assert len(doc["files"]) == len(run["artifacts"]), name
    results = iter(run["results"])
    for f, a in zip(doc["files"], run["artifacts"]):
        props = a["properties"]
        for key in ("path", "format", "version", "verdict", "counts", "truncated"):
            assert props[key] == f[key], (name, f["path"], key)
        for m in f["messages"]:
            r = next(results)
            assert r["ruleId"] == m["id"] and r["message"]["text"] == m["message"], (name, m)
            assert r["properties"]["severity"] == m["severity"], (name, m)
            assert r.get("baselineState") == ("unchanged" if m.get("baselined") else None), (name, m)
            region = r["locations"][0]["physicalLocation"].get("region", {})
            if "offset" in m:
                assert region == {"byteOffset": m["offset"], "byteLength": 1}, (name, m, region)
            elif "line" in m:
                assert region == {"startLine": m["line"], "startColumn": m["column"]}, (name, m)
            else:
                assert region == {}, (name, m)
            logical = r["locations"][0].get("logicalLocations")
            if m["path"]:
                assert logical == [{"fullyQualifiedName": m["path"]}], (name, m)
            else:
                assert logical is None, (name, m)
    assert next(results, None) is None, f"{name}: more SARIF results than JSON messages"
    unreadable = any(m["id"] == "MDL-IO-001" for f in doc["files"] for m in f["messages"])
    assert run["invocations"][0]["executionSuccessful"] == (not unreadable), name
    assert run["properties"]["failOn"] == doc["fail_on"], name


def main(argv):
    spec = argv[1]
    report_v = validator(f"{spec}/report.schema.json")
    sarif_v = validator(f"{spec}/sarif-subset.schema.json")
    pairs = argv[2:]
    assert pairs and len(pairs) % 2 == 0, "give JSON and SARIF reports in pairs"
    for jpath, spath in zip(pairs[::2], pairs[1::2]):
        doc, log = load(jpath), load(spath)
        validate(report_v, doc, jpath)
        validate(sarif_v, log, spath)
        check_json(doc, jpath)
        check_sarif(log, spath)
        check_agree(doc, log, jpath)
        print(f"ok: {jpath} {spath} ({sum(len(f['messages']) for f in doc['files'])} messages)")
    return 0


if __name__ == "__main__":
    try:
        sys.exit(main(sys.argv))
    except (AssertionError, KeyError, IndexError, ValueError, jsonschema.SchemaError) as e:
        print(f"FAIL: {type(e).__name__}: {e}", file=sys.stderr)
        sys.exit(1)
