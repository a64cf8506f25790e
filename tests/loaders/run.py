#!/usr/bin/env python3
"""run.py - the real loaders as oracles: load every corpus case and example with each loader that
runs here (assimp, through tests/loaders/assimp_load), each file in its own process under a time
limit, and hold mdlcheck's --target prediction against what the loader did.

    run.py --srcdir DIR --builddir DIR [--samples DIR] [--markdown FILE] [--timeout S]

The oracle's two claims, checked for every file (exit 1 when one fails, listing each):
  1. a file the loader rejects, crashes or hangs on is invalid under --target=LOADER;
  2. a file valid by the specification that the loader loads is valid under --target=LOADER.
A disagreement that is understood is listed in tests/loaders/LOADER-exceptions.txt
(`case path<TAB>reason`); an exception that no longer disagrees fails too, so the list stays true.
--markdown writes the per-file table (reports/loaders.md, `make loaders`)."""
import argparse
import json
import os
import subprocess
import sys
import tempfile

ap = argparse.ArgumentParser()
ap.add_argument("--srcdir", required=True)
ap.add_argument("--builddir", required=True)
ap.add_argument("--samples", help="also load the real files under this folder (not committed)")
ap.add_argument("--markdown", help="write the table here")
ap.add_argument("--timeout", type=int, default=5)
args = ap.parse_args()

src, build = os.path.abspath(args.srcdir), os.path.abspath(args.builddir)
mdlcheck = os.environ.get("MDLCHECK", os.path.join(build, "validator", "mdlcheck"))
case_run = os.path.join(build, "tests", "conformance", "case_run")
assimp_load = os.path.join(build, "tests", "loaders", "assimp_load")
for tool in (mdlcheck, case_run, assimp_load):
    if not os.access(tool, os.X_OK):
        print(f"loaders: {tool} is not built (assimp_load needs libassimp-dev)", file=sys.stderr)
        sys.exit(77)

tmp = tempfile.mkdtemp(prefix="mdlcheck-loaders-")
inputs = []  # dicts: label, path, options


def add_case(path):
    out = subprocess.run([case_run, "--dump-tree", path], capture_output=True, text=True)
    if out.returncode != 0:
        raise SystemExit(f"loaders: case_run --dump-tree {path} failed: {out.stderr.strip()}")
    name, data, opts = None, None, {}
    for line in out.stdout.splitlines():
        f = line.split("\t")
        if f[0] == "input":
            name, data = f[1], bytes.fromhex(f[2])
        elif f[0] == "option" and f[1] in ("assume-format", "profile"):
            opts[f[1]] = f[2]
    if name is None:  # input: {missing: true}: nothing to load
        return
    d = os.path.join(tmp, str(len(inputs)))
    os.mkdir(d)
    p = os.path.join(d, name)
    with open(p, "wb") as fp:
        fp.write(data)
    inputs.append({"label": os.path.relpath(path, src), "path": p, "options": opts})


for top, dirs, files in os.walk(os.path.join(src, "corpus")):
    rel = os.path.relpath(top, src).split(os.sep)
    if "base" in rel or (len(rel) > 1 and rel[1] == "fuzz"):
        continue
    dirs.sort()
    for f in sorted(files):
        if f.endswith(".yaml") and len(rel) >= 2:
            add_case(os.path.join(top, f))
for top, label in ((os.path.join(src, "examples"), "examples"), (args.samples, "samples")):
    if not top:
        continue
    for dp, dirs, files in os.walk(top):
        dirs.sort()
        for f in sorted(files):
            if not f.endswith((".md", ".txt")):
                p = os.path.join(dp, f)
                inputs.append({"label": os.path.join(label, os.path.relpath(p, top)), "path": p,
                               "options": {}})

# the loader: one process per file, under the time limit (assimp_load forks for each)
res = subprocess.run([assimp_load, f"--timeout={args.timeout}"] + [i["path"] for i in inputs],
                     capture_output=True, text=True)
if res.returncode != 0:
    raise SystemExit(f"loaders: assimp_load failed: {res.stderr.strip()}")
did = {}
for line in res.stdout.splitlines():
    path, what, *detail = line.split("\t")
    did[path] = (what, detail[0] if detail else "")

# mdlcheck's word: the specification's verdict, and the verdict under --target=assimp
problems, rows, agree = [], [], 0
exceptions = {}
exc_path = os.path.join(src, "tests", "loaders", "assimp-exceptions.txt")
for line in open(exc_path, encoding="utf-8"):
    if line.strip() and not line.startswith("#"):
        case, reason = line.rstrip("\n").split("\t", 1)
        exceptions[case] = reason
used_exceptions = set()
for i in inputs:
    cmd = [mdlcheck, "validate", "--no-config", "-f", "json", "--max-per-rule=0", "--target=assimp"]
    cmd += [f"--{k}={v}" for k, v in sorted(i["options"].items())] + [i["path"]]
    out = subprocess.run(cmd, capture_output=True, text=True)
    what, detail = did.get(i["path"], ("missing", "assimp_load gave no answer"))
    if out.returncode == 2 and not out.stdout:  # the case's own option is a usage error: no verdict
        rows.append((i["label"], "-", what, detail, "usage error", "usage error", "", ""))
        continue
    if out.returncode not in (0, 1, 3):
        problems.append(f"{i['label']}: mdlcheck exit {out.returncode}: {out.stderr.strip()}")
        continue
    entry = json.loads(out.stdout)["files"][0]
    bad = [m for m in entry["messages"] if m["severity"] in ("fatal", "error")]
    spec_valid = not any(not m["id"].startswith("TGT-") for m in bad)
    target_valid = not bad
    tgt = sorted({m["id"] for m in entry["messages"] if m["id"].startswith("TGT-ASSIMP-")})
    claim = None
    if what in ("reject", "crash", "hang") and target_valid:
        claim = f"assimp {what}s it ({detail}), but it is valid under --target=assimp"
    elif what == "load" and spec_valid and not target_valid:
        claim = f"assimp loads it and it is spec-valid, but --target=assimp says invalid ({', '.join(tgt)})"
    elif what == "missing":
        claim = "assimp_load gave no answer"
    note = ""
    if claim and i["label"] in exceptions:
        used_exceptions.add(i["label"])
        note = "exception: " + exceptions[i["label"]]
    elif claim:
        problems.append(f"{i['label']}: {claim}")
        note = "DISAGREES"
    else:
        agree += 1
    rows.append((i["label"], entry["format"], what, detail, "valid" if spec_valid else "invalid",
                 "valid" if target_valid else "invalid", ", ".join(tgt), note))
for case in sorted(set(exceptions) - used_exceptions):
    if any(r[0] == case for r in rows):
        problems.append(f"{case}: listed in assimp-exceptions.txt, but assimp and mdlcheck agree now")

counts = {}
for r in rows:
    counts[r[2]] = counts.get(r[2], 0) + 1
summary = (f"assimp: {len(rows)} files: " + ", ".join(f"{n} {k}" for k, n in sorted(counts.items())) +
           f"; {agree} agree with --target=assimp, {len(used_exceptions)} documented exceptions, "
           f"{len(problems)} problems")
print(summary)

if args.markdown:
    with open(args.markdown, "w", encoding="utf-8") as md:
        md.write("# The real loaders against the corpus\n\n"
                 "Generated by `make loaders` (tests/loaders/run.py); do not edit. Each file (every "
                 "conformance case's input, every example" + (", the shared samples" if args.samples else "") +
                 ") was loaded by the loader in its own process with a "
                 f"{args.timeout} s limit; *spec* is mdlcheck's verdict by the specification, "
                 "*target* its verdict under `--target=LOADER`, with the target rules that fired. "
                 "The oracle's claims: whatever the loader rejects, crashes or hangs on is invalid "
                 "under its target, and no spec-valid file it loads is.\n\n")
        md.write("## Loaders\n\n"
                 "- **assimp** 5.2.5 (Debian libassimp5 5.2.5~ds0-1): run through its C API "
                 "(`tests/loaders/assimp_load.c`, `aiImportFile` with `aiProcess_ValidateDataStructure`).\n"
                 "- **darkplaces, ioq3, tesseract (Red Eclipse)**: not run. Debian bookworm packages "
                 "no DarkPlaces; its `ioquake3` and `redeclipse` packages are the games, which load a "
                 "model only inside a running renderer (a window and an OpenGL context), with no "
                 "command that loads one file and says whether it loaded. Their targets, and those of "
                 "raylib, FTE, Daemon, Panda3D, carpglib and Space Trader, are read from source only "
                 "(`mdlcheck targets`).\n\n")
        md.write(f"## assimp\n\n{summary}.\n\n")
        md.write("| file | format | assimp | what it said | spec | target | target rules | note |\n"
                 "|---|---|---|---|---|---|---|---|\n")
        for r in rows:
            cells = [c.replace("|", "\\|").replace(tmp + "/", "") for c in
                     (r[0], r[1], r[2], r[3][:120], r[4], r[5], r[6], r[7])]
            md.write("| " + " | ".join(cells) + " |\n")

for p in problems:
    print("FAIL:", p)
subprocess.run(["rm", "-rf", tmp])
sys.exit(1 if problems else 0)
