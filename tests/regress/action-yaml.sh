#!/bin/sh
# action.yml read as GitHub reads it (python3-yaml): its inputs (SARIF upload off by default,
# config and baseline as inputs), its steps (one validation, sudo only as a fallback, the build
# cached under a key of the version, libtool among the build packages), and that the README's
# snippet and the contrib workflow use only inputs it has. Skipped without python3-yaml.
. "${srcdir:-.}/tests/regress/regress-lib.sh"

"$PYTHON" -c 'import yaml' 2>/dev/null || { echo "SKIP: no python3-yaml"; exit 77; }
checks=$((checks + 1))
"$PYTHON" - "$SRC" <<'EOF_PY' || fail "action.yml"
import re
import sys

import yaml

src = sys.argv[1]
problems = []
with open(f"{src}/action.yml") as f:
    action = yaml.safe_load(f)
inputs = action["inputs"]
for name, spec in inputs.items():
    if not spec.get("description"):
        problems.append(f"input {name} has no description")
for name, default in (("upload-sarif", "false"), ("config-from-pull-request", "false"),
                      ("paths", "."), ("config", ""), ("baseline", ""), ("args", "")):
    if name not in inputs:
        problems.append(f"no input {name}")
    elif str(inputs[name].get("default")) != default:
        problems.append(f"input {name} defaults to {inputs[name].get('default')!r}, not {default!r}")
if "security-events: write" not in inputs.get("upload-sarif", {}).get("description", ""):
    problems.append("upload-sarif's description does not name the permission it needs")

steps = action["runs"]["steps"]
text = yaml.safe_dump(action)
used = set(re.findall(r"inputs\.([\w-]+)", text))
for name in inputs:
    if name not in used:
        problems.append(f"input {name} is never used")
for name in used - set(inputs):
    problems.append(f"steps use inputs.{name}, which is not declared")

runs = [s["run"] for s in steps if "run" in s]
# sudo only where not root: no command line starts with it
for script in runs:
    for line in script.splitlines():
        if re.match(r"\s*sudo\b", line):
            problems.append(f"unconditional sudo: {line.strip()}")
# exactly one validation: one mdlcheck command line that is not --version
calls = [l.strip() for script in runs for l in script.splitlines()
         if re.match(r'\s*("?\$MDL_PREFIX/bin/)?mdlcheck"? ', l) and "--version" not in l]
if len(calls) != 1:
    problems.append(f"{len(calls)} mdlcheck runs, not one: {calls}")
build = "\n".join(runs)
if not re.search(r"\blibtool\b", build):
    problems.append("the build installs no libtool")
if "id -u" not in build:
    problems.append("the build does not check whether it runs as root before using sudo")

uses = {s.get("uses", "").split("@")[0]: s for s in steps if "uses" in s}
for cache in ("actions/cache/restore", "actions/cache/save"):
    if cache not in uses:
        problems.append(f"no {cache} step")
    elif "steps.find.outputs.key" not in str(uses[cache]["with"].get("key")):
        problems.append(f"{cache} is not keyed by the find step's key")
if "MDL_VERSION_STRING" not in build:
    problems.append("the cache key does not hold the version")
upload = uses.get("github/codeql-action/upload-sarif")
if not upload or "inputs.upload-sarif == 'true'" not in str(upload.get("if")):
    problems.append("the SARIF upload does not depend on upload-sarif")
if "GITHUB_BASE_REF" not in build or "--no-config" not in build:
    problems.append("pull requests do not take the configuration from the base branch")

# the README's snippet and the contrib workflow: every `with:` key is an input
readme = open(f"{src}/README.md", encoding="utf-8").read()
blocks = [b for b in re.findall(r"```yaml\n(.*?)```", readme, re.S) if "/mdlcheck@" in b]
if not blocks:
    problems.append("README has no workflow snippet using the action")
workflows = [("README", yaml.safe_load(b)) for b in blocks]
with open(f"{src}/contrib/github-actions/mdlcheck.yml") as f:
    workflows.append(("contrib", yaml.safe_load(f)))
for where, doc in workflows:
    jobs = doc.get("jobs", {}).values() if isinstance(doc, dict) else []
    found = False
    for job in jobs:
        for step in job.get("steps", []):
            if "/mdlcheck@" in step.get("uses", ""):
                found = True
                for key in step.get("with", {}):
                    if key not in inputs:
                        problems.append(f"{where}: the action has no input {key}")
            for line in step.get("run", "").splitlines():
                if re.match(r"\s*sudo\b", line):
                    problems.append(f"{where}: unconditional sudo: {line.strip()}")
    if not found:
        problems.append(f"{where}: no complete workflow using the action (jobs: ... steps: ... uses:)")
if "security-events: write" not in readme:
    problems.append("README does not say SARIF upload needs security-events: write")

for p in problems:
    print("FAIL:", p, file=sys.stderr)
sys.exit(1 if problems else 0)
EOF_PY
finish
