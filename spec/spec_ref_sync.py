#!/usr/bin/env python3
"""spec_ref_sync.py - write each rule's spec_ref from the Rules lines of spec/formats/*.md.

The clauses are the source of the mapping: list a rule id on a clause's `- Rules:` line, run
`python3 spec/spec_ref_sync.py` from the top of the tree, and the catalogue entry gets (or has
replaced) `spec_ref: 'spec/formats/<fmt>.md#<anchor>'` directly after its `section:` line. No
other line of the catalogue is touched, so concurrent edits of other fields merge cleanly."""
import os
import re
import sys

top = sys.argv[1] if len(sys.argv) > 1 else "."
fmt_dir = os.path.join(top, "spec", "formats")
rules_dir = os.path.join(top, "spec", "rules")

ref_of = {}
for name in sorted(os.listdir(fmt_dir)):
    if not name.endswith(".md") or name == "README.md":
        continue
    anchor, fence = None, False
    for line in open(os.path.join(fmt_dir, name), encoding="utf-8"):
        if line.startswith("```"):
            fence = not fence
        if fence:
            continue
        m = re.match(r'^#{1,6}\s+<a id="([^"]+)"></a>', line)
        if m:
            anchor = m.group(1)
        elif line.startswith("#"):
            anchor = None
        m = re.match(r"^- Rules:\s*(.*)$", line)
        if m and anchor and m.group(1).strip() != "-":
            for rid in (r.strip() for r in m.group(1).split(",")):
                if rid in ref_of:
                    sys.exit(f"{name}: {rid} is listed by two clauses")
                ref_of[rid] = f"spec/formats/{name}#{anchor}"

seen = set()
for name in sorted(os.listdir(rules_dir)):
    if not name.endswith(".yaml"):
        continue
    path = os.path.join(rules_dir, name)
    out, cur, ind = [], None, ""
    for line in open(path, encoding="utf-8"):
        m = re.match(r"^( *)- id:\s*['\"]?([A-Z0-9-]+)['\"]?\s*$", line)
        if m:
            ind, cur = m.group(1) + "  ", m.group(2)  # the entry's fields are indented past its dash
        if cur and line.startswith(ind + "spec_ref:"):
            continue  # replaced below
        out.append(line)
        if cur and line.startswith(ind + "section:") and cur in ref_of:
            out.append(f"{ind}spec_ref: '{ref_of[cur]}'\n")
            seen.add(cur)
    with open(path, "w", encoding="utf-8") as f:
        f.writelines(out)

# target rules (spec/targets) get their spec_ref from their target, not from this script
missing = sorted(r for r in set(ref_of) - seen if not r.startswith("TGT-"))
if missing:
    sys.exit("clauses list rules the catalogue does not have (or whose section: line is not a "
             "single line): " + ", ".join(missing))
print(f"spec_ref written for {len(seen)} rules")
