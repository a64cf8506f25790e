#!/bin/sh
# The rule pages (doc/rulepages): one per catalogued rule, each with the clause, why, how to fix,
# and the corpus's smallest failing case and passing twin, whose examples must still trigger (or
# not trigger) the rule: `doc/rulepages --check` fails when one does not. A corpus doctored so
# that a failing case no longer fails must make it fail; `mdlcheck explain` shows the examples.
set -u
: "${srcdir:=.}" "${top_builddir:=.}"
gen=$top_builddir/doc/rulepages
mdlcheck=$top_builddir/validator/mdlcheck
[ -x "$gen" ] || { echo "no $gen" >&2; exit 99; }
work=$(mktemp -d "${TMPDIR:-/tmp}/mdl-pages.XXXXXX") || exit 99
trap 'rm -rf "$work"' EXIT
failures=0
fail() { echo "FAIL: $*" >&2; failures=$((failures + 1)); }

"$gen" --check "$srcdir/corpus" "$work/pages" || fail "an example of a rule page disagrees with its rule"
rules=$("$mdlcheck" rules | wc -l)
pages=$(ls "$work/pages" | grep -c '\.md$')
[ "$rules" -eq "$pages" ] || fail "$pages pages for $rules rules"
for id in $("$mdlcheck" rules | awk '{print $1}'); do
  p=$work/pages/$id.md
  [ -f "$p" ] || { fail "no page for $id"; continue; }
  for section in "## The clause" "## Why" "## How to fix" "## Smallest failing case" "## Passing twin"; do
    grep -qx "$section" "$p" || fail "$id: no '$section'"
  done
done
# every rule the corpus has a failing case for shows it with mdlcheck's output naming the rule
shown=$(grep -l '^\[`corpus/.*-fail\.yaml`\]' "$work"/pages/*.md | wc -l)
[ "$shown" -gt 300 ] || fail "only $shown pages show a failing case"
grep -q 'error\[IQM-JNT-002\]' "$work/pages/IQM-JNT-002.md" || fail "IQM-JNT-002's page lacks mdlcheck's report"

# the check can fail: a failing case whose patch no longer breaks anything
mkdir -p "$work/corpus/iqm/skeleton"
cp -r "$srcdir/corpus/iqm/base" "$work/corpus/iqm/base"
sed 's/i32: 2}/i32: 0}/' "$srcdir/corpus/iqm/skeleton/IQM-JNT-002-t01-fail.yaml" \
  >"$work/corpus/iqm/skeleton/IQM-JNT-002-t01-fail.yaml"
if "$gen" --check "$work/corpus" "$work/bad" 2>"$work/err"; then
  fail "--check passed a failing case that no longer triggers its rule"
fi
grep -q "IQM-JNT-002: an example disagrees" "$work/err" || fail "--check did not name IQM-JNT-002"
grep -q "no longer reports the rule" "$work/bad/IQM-JNT-002.md" || fail "the page does not say the example stopped failing"

# explain prints the same examples and how to fix
MDLCHECK_RULE_PAGES=$work/pages "$mdlcheck" explain IQM-JNT-002 >"$work/explain" || fail "explain failed"
grep -q '^  how to fix: ' "$work/explain" || fail "explain has no 'how to fix'"
grep -q '^    ## Smallest failing case' "$work/explain" || fail "explain shows no failing case"
grep -q 'error\[IQM-JNT-002\]' "$work/explain" || fail "explain does not show mdlcheck's report of the case"

[ "$failures" -eq 0 ] || { echo "$failures check(s) failed" >&2; exit 1; }
