#!/usr/bin/env python3
"""target_clauses.py - write spec/formats/target.md, the reference text's clause of each target,
from spec/targets/*.yaml (run from the top of the tree after changing a target: the Rules line
of each clause lists exactly its rules, which tests/spec/spec-refs.sh checks)."""
import glob
import os
import sys

import yaml

top = sys.argv[1] if len(sys.argv) > 1 else "."
out = ["""# Targets: what real loaders accept

The specification (`spec/formats/<fmt>.md`) says what a file must be. A *target* says what one real
loader does with a file that is valid by it: which files it refuses, which make it crash or hang,
and what it silently changes. `--target=NAME` adds the target's rules to the specification's; it
never removes or lowers one. A file the loader refuses or crashes on is an error under its target
and may be valid without it; what the loader silently changes is a warning saying how the model
will look. The facts are read from each loader's public source, and every rule cites the file and
line (`mdlcheck explain TGT-...`, `doc/targets.md`); the targets themselves are data,
`spec/targets/NAME.yaml`, generated into this text by `spec/target_clauses.py`.

A target clause is informative: it states a loader's behaviour, not a condition on the format.
"""]
for path in sorted(glob.glob(os.path.join(top, "spec", "targets", "*.yaml"))):
    t = yaml.safe_load(open(path, encoding="utf-8"))
    rules = t["rules"]
    out.append(f"""
### <a id="target-{t['target']}"></a>TARGET {t['target']}: {t['loader']}

- Status: informative
- Source: {t['repository']} at {t['commit']} ({t['versions']}); every rule cites its file and line
- Rules: {', '.join(r['id'] for r in rules)}

{t['loader']}, versions {t['versions']}, reads `{t['formats']}` of the formats mdlcheck knows.

""")
    out.append("\n".join(f"- {r['id']} ({r['severity']}, `{r['path']}:{r['line']}`): {r['text']}"
                         for r in rules) + "\n")
    if t.get("notes"):
        out.append(f"\n{t['notes']}\n")
with open(os.path.join(top, "spec", "formats", "target.md"), "w", encoding="utf-8") as f:
    f.write("".join(out))
