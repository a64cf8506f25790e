#!/bin/sh
# The reference specification and the catalogue agree: every spec_ref names an existing clause,
# every normative clause is enforced by a rule, each clause's Rules line is exactly the rules
# citing it, and every rule of a format with a reference text cites one of its clauses
# (conventions: spec/formats/README.md). Reports how many rules cite only an upstream source.
. "${srcdir:-.}/tests/cli/cli-lib.sh"

run rules --format=json
expect_rc 0 "rules --format=json"
cp "$work/out" "$work/rules.json"
"$PYTHON" - "$srcdir/spec/formats" "$work/rules.json" "$top_builddir/doc/rules.md" <<'PY' || fail "spec references"
import json, os, re, sys

spec_dir, rules_path, rules_md = sys.argv[1:4]
rules = json.load(open(rules_path))["rules"]
problems = []
HEAD = re.compile(r"^(#{1,6})\s+(.*)$")
ANCHOR = re.compile(r'^<a id="([^"]+)"></a>(.*)$')

def slug(title):
    # GitHub's heading anchors: lower case, punctuation dropped, spaces to dashes
    t = re.sub(r"<[^>]+>", "", title).strip().lower()
    return re.sub(r"[^\w\- ]", "", t).replace(" ", "-")

docs = {}   # file name -> {"anchors": set, "clauses": {id: clause}}
for name in sorted(os.listdir(spec_dir)):
    if not name.endswith(".md") or name == "README.md":
        continue
    fmt = name[:-3]
    anchors, clauses, cur, fence = set(), {}, None, False
    for n, line in enumerate(open(os.path.join(spec_dir, name), encoding="utf-8"), 1):
        line = line.rstrip("\n")
        if line.startswith("```"):
            fence = not fence
        m = None if fence else HEAD.match(line)
        if m:
            a = ANCHOR.match(m.group(2))
            cur = None
            anchors.add(slug(m.group(2)))
            if a:
                cid = a.group(1)
                if cid in clauses:
                    problems.append(f"{name}:{n}: anchor {cid} defined twice")
                if not re.fullmatch(fmt + r"-[a-z0-9-]+", cid):
                    problems.append(f"{name}:{n}: anchor {cid} is not {fmt}-<lower-case-words>")
                anchors.add(cid)
                cur = clauses[cid] = {"line": n, "status": None, "source": None, "rules": None}
            continue
        if cur is None:
            continue
        for key in ("status", "source", "rules"):
            mm = re.match(r"^- " + key.capitalize() + r":\s*(.*)$", line)
            if mm:
                cur[key] = mm.group(1).strip()
    for cid, c in clauses.items():
        where = f"{name}:{c['line']}: clause {cid}"
        if c["status"] not in ("normative", "informative"):
            problems.append(f"{where}: Status is {c['status']!r}, not normative or informative")
        if not c["source"]:
            problems.append(f"{where}: no Source line")
        if c["rules"] is None:
            problems.append(f"{where}: no Rules line")
            c["rules"] = "-"
        listed = [] if c["rules"] == "-" else [r.strip() for r in c["rules"].split(",")]
        c["listed"] = listed
        c["citing"] = []
    docs[name] = {"fmt": fmt, "anchors": anchors, "clauses": clauses}

ids = {r["id"] for r in rules}
without = {}
for r in rules:
    ref = r.get("spec_ref")
    doc_name = r["format"] + ".md"
    if not ref:
        if doc_name in docs:
            problems.append(f"{r['id']}: format {r['format']} has spec/formats/{doc_name}, the rule no spec_ref")
        without[r["format"]] = without.get(r["format"], 0) + 1
        continue
    m = re.fullmatch(r"spec/formats/([a-z0-9]+\.md)#([a-z0-9-]+)", ref)
    if not m:
        problems.append(f"{r['id']}: spec_ref {ref!r} is not spec/formats/<fmt>.md#<anchor>")
        continue
    f, a = m.groups()
    if f not in docs:
        problems.append(f"{r['id']}: spec_ref {ref}: no such file")
    elif a not in docs[f]["anchors"]:
        problems.append(f"{r['id']}: spec_ref {ref}: no such anchor in {f}")
    elif a not in docs[f]["clauses"]:
        problems.append(f"{r['id']}: spec_ref {ref}: a heading, but not a clause (no explicit anchor)")
    else:
        docs[f]["clauses"][a]["citing"].append(r["id"])
        if not r.get("clause"):
            problems.append(f"{r['id']}: rules --format=json carries no clause text")

for f, d in docs.items():
    for cid, c in d["clauses"].items():
        where = f"{f}:{c['line']}: clause {cid}"
        for rid in c["listed"]:
            if rid not in ids:
                problems.append(f"{where}: lists {rid}, which the catalogue does not have")
        if c["status"] == "normative" and not c["citing"]:
            problems.append(f"{where}: normative, but no rule's spec_ref names it")
        if sorted(c["listed"]) != sorted(c["citing"]):
            problems.append(f"{where}: Rules line {sorted(c['listed'])} but cited by {sorted(c['citing'])}")

# doc/rules.md links each rule that has a clause to it
if os.path.exists(rules_md):
    md = open(rules_md, encoding="utf-8").read()
    for r in rules:
        if r.get("spec_ref") and f"](../{r['spec_ref']})" not in md:
            problems.append(f"{r['id']}: doc/rules.md does not link {r['spec_ref']}")
else:
    problems.append(f"{rules_md} was not generated")

for p in problems:
    print("FAIL:", p)
nclauses = sum(len(d["clauses"]) for d in docs.values())
nnorm = sum(1 for d in docs.values() for c in d["clauses"].values() if c["status"] == "normative")
print(f"spec-refs: {len(docs)} reference texts, {nclauses} clauses ({nnorm} normative); "
      f"{len(rules) - sum(without.values())} of {len(rules)} rules cite a clause")
if without:
    print("spec-refs: rules citing only their upstream source (no reference text yet): " +
          ", ".join(f"{k} {v}" for k, v in sorted(without.items())))
sys.exit(1 if problems else 0)
PY
finish
