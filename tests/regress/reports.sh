#!/bin/sh
# make_reports.py (`make reports`): the conformance matrix agrees with the catalogue and the
# corpus counted independently, the page holds the matrix and one chart per animated sample,
# every pose margin is within its tolerance, and regenerating gives the same bytes.
. "${srcdir:-.}/tests/regress/regress-lib.sh"

POSE_MARGIN=$BUILD/tests/reports/pose_margin
SAMPLES=$SRC/../shared/samples
test -x "$POSE_MARGIN" || { echo "no $POSE_MARGIN" >&2; exit 99; }

gen()
{
  "$PYTHON" "$SRC/tests/reports/make_reports.py" --srcdir "$SRC" --mdlcheck "$MDLCHECK" \
    --case-run "$CASE_RUN" --pose-margin "$POSE_MARGIN" --samples "$SAMPLES" --out "$1" \
    >"$work/out" 2>"$work/err"
}

rc=0; gen r1 || rc=$?
expect_rc 0 "make_reports.py"
expect_count out '^reports: [0-9]+ rules' 1
for f in conformance-matrix.md conformance-matrix.json index.html; do
  checks=$((checks + 1))
  test -s "r1/$f" || fail "no r1/$f"
done

# deterministic: a second run writes the same bytes
rc=0; gen r2 || rc=$?
expect_rc 0
for f in conformance-matrix.md conformance-matrix.json index.html; do
  checks=$((checks + 1))
  cmp -s "r1/$f" "r2/$f" || fail "$f differs between two runs"
done

# the page's screenshots (web/*.png, written there by web/test/browser) are linked, in name
# order; other files are not; without them the page has no such section
mkdir -p r3/web && : >r3/web/walk.iqm.png && : >r3/web/broken.egg.png && : >r3/web/notes.txt
rc=0; gen r3 || rc=$?
expect_rc 0 "make_reports.py with screenshots"
grep -o '<li><a href="web/[^"]*">[^<]*</a></li>' r3/index.html >shots
expect_same shots '<li><a href="web/broken.egg.png">broken.egg</a></li>
<li><a href="web/walk.iqm.png">walk.iqm</a></li>'
expect_count r1/index.html 'In the browser' 0

"$CASE_RUN" --rules >rules.tsv || exit 99
checks=$((checks + 1))
"$PYTHON" - "$SRC" r1 rules.tsv "$POSE_MARGIN" "$SAMPLES" <<'PY' || fail "matrix or page"
import glob, json, os, re, subprocess, sys
src, out, rules_tsv, pose_margin, samples = sys.argv[1:]
d = json.load(open(os.path.join(out, "conformance-matrix.json")))
errors = []
def check(cond, what):
    if not cond:
        errors.append(what)

catalogue = [line.split("\t")[0] for line in open(rules_tsv) if line.strip()]
rows = {r["id"]: r for r in d["rules"]}
check(sorted(rows) == sorted(catalogue), "the matrix has exactly the catalogue's rules")
check(d["totals"]["rules"] == len(catalogue), "totals.rules")

# corpus counted again, another way: expect lines naming an id, and look-alikes by file name
cases = [c for c in glob.glob(os.path.join(src, "corpus", "*", "**", "*.yaml"), recursive=True)
         if "/base/" not in c and "/corpus/fuzz/" not in c]
check(d["totals"]["cases"] == len(cases), "totals.cases %d, found %d" % (d["totals"]["cases"], len(cases)))
fail_text = {}
for c in cases:
    if c.endswith("-fail.yaml"):
        fail_text[c] = [l for l in open(c, encoding="utf-8") if not l.lstrip().startswith("#")]
for rid, r in rows.items():
    named = re.compile(r"(id:\s*|^\s*-\s*)" + re.escape(rid) + r"\b")
    n_fail = sum(1 for lines in fail_text.values() if any(named.search(l) for l in lines))
    n_pass = len([c for c in cases if re.search(re.escape(rid) + r"-t[0-9]+-pass\.yaml$", c)])
    check(r["fail_cases"] == n_fail, "%s fail cases %d, counted %d" % (rid, r["fail_cases"], n_fail))
    check(r["pass_cases"] == n_pass, "%s pass cases %d, counted %d" % (rid, r["pass_cases"], n_pass))
    want = "covered" if n_fail else r["status"]
    check(r["status"] == want and (n_fail or r["status"] in ("covered-cli", "uncovered")),
          "%s status %s" % (rid, r["status"]))

# the Markdown row of one rule, exactly
r = rows["IQM-JNT-002"]
row = "| IQM-JNT-002 | %s | %s | %s | %d | %d | covered |" % (r["name"], r["versions"], r["severity"],
                                                            r["fail_cases"], r["pass_cases"])
md = open(os.path.join(out, "conformance-matrix.md"), encoding="utf-8").read().splitlines()
check(row in md, "markdown row " + row)
check(r["fail_cases"] >= 3, "IQM-JNT-002 has its three fail cases")

# the page: one matrix row per rule, one chart per animated sample, margins within tolerance
page = open(os.path.join(out, "index.html"), encoding="utf-8").read()
matrix = page.split('<table id="matrix">', 1)[1].split("</table>", 1)[0]
check(matrix.count("<tr class=") == len(catalogue), "page matrix rows")
animated = 0
if os.path.isdir(samples):
    files = []
    for pat in ("iqm/*.iqm", "iqm/*.iqe", "iqe/*.iqe", "egg/*.egg", "egg/*.egg.pz", "qmsh/*.qmsh", "x42/*.x42"):
        files += glob.glob(os.path.join(samples, pat))
    for f in sorted(set(files)):
        p = subprocess.run([pose_margin, f], stdout=subprocess.PIPE, text=True)
        animated += len(p.stdout.splitlines())
    check(animated > 0, "the samples hold animated models")
check(page.count('<svg class="margin"') == animated, "charts %d, animated samples %d"
      % (page.count('<svg class="margin"'), animated))
check(len(d["pose_margins"]) == animated, "pose_margins entries")
for m in d["pose_margins"]:
    check("error" not in m, "round trip of %s: %s" % (m["sample"], m.get("error")))
    for c in m.get("channels", []):
        check(0 <= c["ratio"] <= 1, "%s %s error/bound %g" % (m["sample"], c["channel"], c["ratio"]))
for e in errors[:20]:
    print("  " + e, file=sys.stderr)
sys.exit(1 if errors else 0)
PY

finish
