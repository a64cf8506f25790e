#!/usr/bin/env python3
"""make_reports.py - the conformance matrix and the HTML report page (`make reports`).

Writes into --out:
  conformance-matrix.json  format x versions x rule: the corpus cases that trigger each rule
                           (fail cases), its clean look-alikes (pass cases) and a status;
  conformance-matrix.md    the same as Markdown tables;
  index.html               the matrix, and for each animated sample the pose-decoding error
                           against its tolerance, per channel, as an inline SVG chart; links to
                           the browser page's screenshots in web/ (one per example, written
                           there by web/test/browser before this runs) when there are any.

Where the numbers come from (nothing is typed in by hand):
  rules       `mdlcheck rules --format=json` (the catalogue, with each rule's versions);
  fail cases  `case_run --expected-ids` over corpus/**/*-fail.yaml: a case triggers every rule
              its `expect` names, as tests/conformance/coverage.test counts it;
  pass cases  corpus/**/<ID>-tNN-pass.yaml, the clean look-alike of rule ID (README naming);
  status      covered (a fail case), covered-cli (only tests/cli names it: configuration, I/O,
              compare), uncovered;
  margins     tests/reports/pose_margin on each sample (decode -> IQM write, requantized like
              the reference compiler -> decode): worst |error| / bound per channel, the bound
              being the conformance runner's (corpus/README.md "Poses").
Output is deterministic (no dates, sorted), so a regenerated report diffs cleanly.
Python 3 standard library only.
"""
import argparse
import glob
import html
import json
import os
import re
import subprocess
import sys

CASE_NAME = re.compile(r"^([A-Z][A-Z0-9]*-[A-Z0-9]+-[0-9]{3})-t[0-9]+-(pass|fail)\.yaml$")
RULE_ID = re.compile(r"[A-Z][A-Z0-9]*-[A-Z0-9]+-[0-9]{3}")
SAMPLE_GLOBS = ["iqm/*.iqm", "iqm/*.iqe", "iqe/*.iqe", "egg/*.egg", "egg/*.egg.pz", "qmsh/*.qmsh",
                "x42/*.x42"]


def run(cmd):
    res = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    return res.returncode, res.stdout, res.stderr


def corpus_cases(srcdir):
    """Every case file (corpus/<fmt>/*.yaml and corpus/<fmt>/<area>/*.yaml, not base/ or fuzz/)."""
    root = os.path.join(srcdir, "corpus")
    cases = []
    for dirpath, dirnames, filenames in os.walk(root):
        rel = os.path.relpath(dirpath, root)
        parts = [] if rel == "." else rel.split(os.sep)
        if parts and parts[0] == "fuzz" or "base" in parts:
            dirnames[:] = []
            continue
        cases += [os.path.join(dirpath, f) for f in filenames if f.endswith(".yaml")]
    return sorted(cases)


def build_matrix(args):
    rc, out, err = run([args.mdlcheck, "rules", "--format=json"])
    if rc != 0:
        sys.exit("make_reports: mdlcheck rules failed: " + err)
    rules = json.loads(out)["rules"]

    cases = corpus_cases(args.srcdir)
    fail_cases = [c for c in cases if c.endswith("-fail.yaml")]
    triggers = {}
    # a few hundred paths per call keeps well inside the argument limit
    for i in range(0, len(fail_cases), 200):
        rc, out, err = run([args.case_run, "--expected-ids"] + fail_cases[i:i + 200])
        if rc != 0:
            sys.exit("make_reports: case_run --expected-ids failed: " + err)
        for line in out.splitlines():
            rule_id, case = line.split("\t", 1)
            triggers.setdefault(rule_id, set()).add(os.path.relpath(case, args.srcdir))
    lookalikes = {}
    feature_pass = {}
    for c in cases:
        name = os.path.basename(c)
        m = CASE_NAME.match(name)
        rel = os.path.relpath(c, args.srcdir)
        if m and m.group(2) == "pass":
            lookalikes.setdefault(m.group(1), set()).add(rel)
        elif not m and name.endswith("-pass.yaml"):
            fmt = rel.split(os.sep)[1]
            feature_pass[fmt] = feature_pass.get(fmt, 0) + 1

    cli_named = set()
    cli_dir = os.path.join(args.srcdir, "tests", "cli")
    for path in sorted(glob.glob(os.path.join(cli_dir, "*"))):
        try:
            with open(path, encoding="utf-8", errors="replace") as f:
                cli_named |= set(RULE_ID.findall(f.read()))
        except OSError:
            pass

    rows = []
    for r in rules:
        fails = sorted(triggers.get(r["id"], ()))
        passes = sorted(lookalikes.get(r["id"], ()))
        if fails:
            status = "covered"
        elif r["id"] in cli_named:
            status = "covered-cli"
        else:
            status = "uncovered"
        rows.append({"id": r["id"], "name": r["name"], "format": r["format"],
                     "versions": r["versions"], "severity": r["severity"],
                     "fail_cases": len(fails), "pass_cases": len(passes), "status": status,
                     "cases": fails + passes})
    rows.sort(key=lambda x: (x["format"], x["id"]))

    groups = {}
    for row in rows:
        g = groups.setdefault((row["format"], row["versions"]),
                              {"format": row["format"], "versions": row["versions"], "rules": 0,
                               "covered": 0, "covered_cli": 0, "uncovered": 0,
                               "fail_cases": 0, "pass_cases": 0})
        g["rules"] += 1
        g[row["status"].replace("-", "_")] += 1
        g["fail_cases"] += row["fail_cases"]
        g["pass_cases"] += row["pass_cases"]
    summary = [groups[k] for k in sorted(groups)]
    totals = {"rules": len(rows), "cases": len(cases), "fail_cases": len(fail_cases),
              "pass_cases": len(cases) - len(fail_cases),
              "covered": sum(1 for x in rows if x["status"] == "covered"),
              "covered_cli": sum(1 for x in rows if x["status"] == "covered-cli"),
              "uncovered": sum(1 for x in rows if x["status"] == "uncovered"),
              "feature_pass_cases": dict(sorted(feature_pass.items()))}
    return {"totals": totals, "summary": summary, "rules": rows}


def pose_margins(args):
    """One entry per animated sample: per channel worst error / bound; failures are kept too."""
    margins = []
    if not args.samples or not os.path.isdir(args.samples):
        return margins, False
    files = []
    for pattern in SAMPLE_GLOBS:
        files += glob.glob(os.path.join(args.samples, pattern))
    for path in sorted(set(files)):
        rel = os.path.relpath(path, args.samples)
        rc, out, err = run([args.pose_margin, path])
        if rc != 0:
            margins.append({"sample": rel, "error": err.strip() or "pose_margin failed"})
            continue
        for line in out.splitlines():
            m = json.loads(line)
            worst = max(c["ratio"] for c in m["channels"])
            margins.append({"sample": rel, "format": m["format"], "frames": m["frames"],
                            "poses": m["poses"], "worst_ratio": worst,
                            "channels": m["channels"]})
    return margins, True


def md_escape(s):
    return str(s).replace("|", "\\|")


def write_markdown(path, matrix):
    t = matrix["totals"]
    out = ["# Conformance matrix", "",
           "Generated by `make reports` (tests/reports/make_reports.py) from the rule catalogue and "
           "the corpus; do not edit by hand.", "",
           f"{t['rules']} rules, {t['cases']} cases ({t['fail_cases']} fail, {t['pass_cases']} pass): "
           f"{t['covered']} covered by a corpus case, {t['covered_cli']} only by the CLI tests, "
           f"{t['uncovered']} uncovered.", "",
           "**Fail cases**: corpus cases whose `expect` names the rule (they trigger it). "
           "**Pass cases**: its clean look-alikes (`<ID>-tNN-pass.yaml`). "
           "**Status**: covered (a fail case), covered-cli (named by tests/cli only), uncovered. "
           "In the table by format, case counts are summed over the rules (a case naming two "
           "rules counts twice).", "",
           "## By format and version", "",
           "| Format | Versions | Rules | Covered | Covered (CLI) | Uncovered | Fail cases | Pass cases |",
           "| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: |"]
    for g in matrix["summary"]:
        out.append(f"| {g['format']} | {md_escape(g['versions'])} | {g['rules']} | {g['covered']} | "
                   f"{g['covered_cli']} | {g['uncovered']} | {g['fail_cases']} | {g['pass_cases']} |")
    fmt = None
    for r in matrix["rules"]:
        if r["format"] != fmt:
            fmt = r["format"]
            out += ["", f"## {fmt}", "",
                    "| Rule | Name | Versions | Severity | Fail cases | Pass cases | Status |",
                    "| --- | --- | --- | --- | ---: | ---: | --- |"]
        out.append(f"| {r['id']} | {md_escape(r['name'])} | {md_escape(r['versions'])} | "
                   f"{r['severity']} | {r['fail_cases']} | {r['pass_cases']} | {r['status']} |")
    with open(path, "w", encoding="utf-8") as f:
        f.write("\n".join(out) + "\n")


def svg_chart(m):
    """Bars of error / bound per channel with the tolerance (ratio 1) drawn as a line."""
    w, h, left, top, bottom = 520, 200, 46, 14, 30
    chans = m["channels"]
    top_ratio = max(1.25, min(m["worst_ratio"] * 1.1, 10.0))
    plot_h = h - top - bottom
    bar_w = (w - left - 10) / len(chans)

    def y(ratio):
        return top + plot_h * (1 - min(ratio, top_ratio) / top_ratio)

    parts = [f'<svg class="margin" xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" '
             f'viewBox="0 0 {w} {h}" role="img" aria-label="error over bound per channel, '
             f'{html.escape(m["sample"])}">',
             f'<rect x="{left}" y="{top}" width="{w - left - 10}" height="{plot_h}" fill="#f7f7f7"/>']
    for tick in (0, 0.5, 1.0):
        parts.append(f'<text x="{left - 6}" y="{y(tick) + 4:.1f}" text-anchor="end" '
                     f'font-size="10">{tick:g}</text>')
    for i, c in enumerate(chans):
        x = left + i * bar_w + bar_w * 0.15
        ratio = c["ratio"]
        colour = "#c0392b" if ratio > 1 else "#27ae60"  # over the tolerance, or within it
        title = (f'{c["channel"]}: error {c["error"]:.3g}, bound {c["bound"]:.3g}, '
                 f'ratio {ratio:.3f}')
        parts.append(f'<rect class="bar" x="{x:.1f}" y="{y(ratio):.1f}" width="{bar_w * 0.7:.1f}" '
                     f'height="{y(0) - y(ratio):.1f}" fill="{colour}"><title>{html.escape(title)}'
                     f'</title></rect>')
        parts.append(f'<text x="{x + bar_w * 0.35:.1f}" y="{h - bottom + 14}" text-anchor="middle" '
                     f'font-size="11">{c["channel"]}</text>')
    parts.append(f'<line x1="{left}" x2="{w - 10}" y1="{y(1):.1f}" y2="{y(1):.1f}" stroke="#333" '
                 f'stroke-dasharray="5 3"/>')
    parts.append(f'<text x="{w - 12}" y="{y(1) - 4:.1f}" text-anchor="end" font-size="10">'
                 f'tolerance (bound)</text>')
    parts.append("</svg>")
    return "".join(parts)


def web_screenshots(out_dir):
    """The page's screenshots (web/<example>.png, from web/test/browser), sorted."""
    web = os.path.join(out_dir, "web")
    return sorted(f for f in os.listdir(web) if f.endswith(".png")) if os.path.isdir(web) else []


def write_html(path, matrix, margins, have_samples, shots=()):
    t = matrix["totals"]
    e = html.escape
    out = ["<!DOCTYPE html>", '<html lang="en"><head><meta charset="utf-8">',
           "<title>mdlcheck conformance report</title>",
           "<style>body{font:14px/1.4 sans-serif;margin:24px;color:#222}"
           "table{border-collapse:collapse;margin:8px 0 24px}"
           "th,td{border:1px solid #ccc;padding:3px 8px;text-align:left}"
           "td.n{text-align:right}th{background:#eee}"
           "tr.uncovered td{background:#fde2e0}tr.covered-cli td{background:#fff6d6}"
           ".sample{display:inline-block;vertical-align:top;margin:0 16px 16px 0}"
           ".sample h3{font-size:14px;margin:4px 0}</style></head><body>",
           "<h1>mdlcheck conformance report</h1>",
           f"<p>{t['rules']} rules, {t['cases']} corpus cases ({t['fail_cases']} fail, "
           f"{t['pass_cases']} pass): <b>{t['covered']}</b> covered by a corpus case, "
           f"{t['covered_cli']} only by the CLI tests, <b>{t['uncovered']}</b> uncovered. "
           "Generated by <code>make reports</code>.</p>",
           "<h2>Pose decoding: error against tolerance</h2>"]
    if not have_samples:
        out.append("<p>No samples folder (../shared/samples): no chart.</p>")
    else:
        out.append("<p>Each animated sample is decoded, written as IQM (frames quantized the way "
                   "the reference compiler does) and decoded again. A bar is the worst |error| / "
                   "bound of one channel over every frame and pose; the dashed line is the "
                   "tolerance (the conformance runner's bound), so the gap above a bar is the "
                   "margin. Green: within the tolerance; red: over it. Ratios near 1 are expected: "
                   "half a quantization step is most of the bound.</p>")
        for m in margins:
            if "error" in m:
                out.append(f'<div class="sample failed"><h3>{e(m["sample"])}</h3>'
                           f'<p>round trip failed: {e(m["error"])}</p></div>')
                continue
            out.append(f'<div class="sample"><h3>{e(m["sample"])}</h3>'
                       f'<p>{e(m["format"])}, {m["frames"]} frames &times; {m["poses"]} poses; '
                       f'worst ratio {m["worst_ratio"]:.3f} (margin '
                       f'{(1 - m["worst_ratio"]) * 100:.1f}%)</p>{svg_chart(m)}</div>')
    if shots:
        out.append("<h2>In the browser</h2><p>The drag-and-drop page (<code>make web</code>) in "
                   "headless Chromium, one example each, its first diagnostic selected "
                   "(web/test/browser):</p><ul id=\"web-shots\">")
        out += [f'<li><a href="web/{e(s)}">{e(s[:-4])}</a></li>' for s in shots]
        out.append("</ul>")
    out += ["<h2>By format and version</h2>", '<table id="summary"><thead><tr><th>Format</th>'
            "<th>Versions</th><th>Rules</th><th>Covered</th><th>Covered (CLI)</th><th>Uncovered</th>"
            "<th>Fail cases</th><th>Pass cases</th></tr></thead><tbody>"]
    for g in matrix["summary"]:
        out.append(f"<tr><td>{e(g['format'])}</td><td>{e(g['versions'])}</td>"
                   f"<td class=n>{g['rules']}</td><td class=n>{g['covered']}</td>"
                   f"<td class=n>{g['covered_cli']}</td><td class=n>{g['uncovered']}</td>"
                   f"<td class=n>{g['fail_cases']}</td><td class=n>{g['pass_cases']}</td></tr>")
    out += ["</tbody></table>", "<h2>Rules</h2>",
            '<table id="matrix"><thead><tr><th>Rule</th><th>Name</th><th>Format</th><th>Versions</th>'
            "<th>Severity</th><th>Fail cases</th><th>Pass cases</th><th>Status</th></tr></thead><tbody>"]
    for r in matrix["rules"]:
        out.append(f'<tr class="{r["status"]}"><td>{e(r["id"])}</td><td>{e(r["name"])}</td>'
                   f"<td>{e(r['format'])}</td><td>{e(r['versions'])}</td><td>{r['severity']}</td>"
                   f"<td class=n>{r['fail_cases']}</td><td class=n>{r['pass_cases']}</td>"
                   f"<td>{r['status']}</td></tr>")
    out += ["</tbody></table>", "</body></html>"]
    with open(path, "w", encoding="utf-8") as f:
        f.write("\n".join(out) + "\n")


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--srcdir", required=True)
    p.add_argument("--mdlcheck", required=True)
    p.add_argument("--case-run", required=True)
    p.add_argument("--pose-margin", required=True)
    p.add_argument("--samples")
    p.add_argument("--out", required=True)
    args = p.parse_args()

    matrix = build_matrix(args)
    margins, have_samples = pose_margins(args)
    os.makedirs(args.out, exist_ok=True)
    doc = dict(matrix)
    doc["pose_margins"] = margins
    with open(os.path.join(args.out, "conformance-matrix.json"), "w", encoding="utf-8") as f:
        json.dump(doc, f, indent=1, sort_keys=True)
        f.write("\n")
    write_markdown(os.path.join(args.out, "conformance-matrix.md"), matrix)
    write_html(os.path.join(args.out, "index.html"), matrix, margins, have_samples,
               web_screenshots(args.out))
    t = matrix["totals"]
    print(f"reports: {t['rules']} rules ({t['uncovered']} uncovered), {t['cases']} cases, "
          f"{sum(1 for m in margins if 'error' not in m)} pose charts -> {args.out}")


if __name__ == "__main__":
    main()
