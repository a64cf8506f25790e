#!/bin/sh
# mdlcheck explain: the catalogue entry, the clause it enforces, the corpus cases naming it;
# exit 2 with the nearest ids for an unknown one. SARIF rules quote the same clause in help.
. "${srcdir:-.}/tests/cli/cli-lib.sh"
MDLCHECK_DATADIR=$srcdir MDLCHECK_CORPUS=$srcdir/corpus
export MDLCHECK_DATADIR MDLCHECK_CORPUS

run explain IQM-JNT-002
expect_rc 0 "explain a known rule"
expect_grep out '^IQM-JNT-002  [a-z0-9-]+  \(iqm\)$' "the id, name and format head the output"
for key in severity versions basis requires message rationale upstream clause; do
  expect_grep out "^  $key: " "no $key line"
done
expect_grep out '^    iqm/skeleton/IQM-JNT-002-t01-fail\.yaml +triggers it$' "the triggering case is listed"
expect_grep out '^  corpus cases \([0-9]+, in ' "the case count"

# every case the listing names exists and is named for the rule or names it
sed -n 's/^    \([A-Za-z0-9_/.-]*\.yaml\) .*/\1/p' "$work/out" >"$work/cases"
[ -s "$work/cases" ] || fail "no cases listed"
while read -r c; do
  [ -f "$MDLCHECK_CORPUS/$c" ] || fail "listed case $c does not exist"
  case $c in */IQM-JNT-002-t*) ;; *) grep -q IQM-JNT-002 "$MDLCHECK_CORPUS/$c" || fail "$c does not name IQM-JNT-002" ;; esac
done <"$work/cases"

# a rule with a tolerance shows it, with its derivation
tol=$("$MDLCHECK" rules --format=json | "$PYTHON" -c '
import json, sys
print(next(r["id"] for r in json.load(sys.stdin)["rules"] if r.get("tolerance")))')
run explain "$tol"
expect_rc 0 "explain $tol"
expect_grep out '^  tolerance: .*derivation' "the tolerance and its derivation"

# every rule with a spec_ref: explain prints the clause and the document it is in
"$MDLCHECK" rules --format=json >"$work/rules.json"
"$PYTHON" - "$work/rules.json" >"$work/cited" <<'PY'
import json, sys
for r in json.load(open(sys.argv[1]))["rules"]:
    if r.get("spec_ref"):
        print(r["id"], r["spec_ref"], r["clause"].split("\n")[0].split(" [")[0], sep="\t")
PY
ncited=$(wc -l <"$work/cited")
echo "explain: $ncited rules cite a clause"
if [ "$ncited" -gt 0 ]; then
  IFS='	' read -r id ref title <"$work/cited"
  run explain "$id"
  expect_rc 0 "explain $id"
  expect_grep out "^  clause: +$ref\$" "the spec_ref"
  expect_grep out "^  document: +$srcdir/${ref%%#*}\$" "the document, found through MDLCHECK_DATADIR"
  expect_grep out "^    $title \[(normative|informative)" "the clause title and status"
  # SARIF: help quotes the clause for each rule that fired
  make_bad_parents_iqm "$work/parents.iqm" 2
  run --format=sarif "$work/parents.iqm"
  "$PYTHON" - "$work/out" "$work/rules.json" <<'PY' || fail "SARIF help does not quote the clause"
import json, sys
sarif = json.load(open(sys.argv[1]))
cat = {r["id"]: r for r in json.load(open(sys.argv[2]))["rules"]}
seen = 0
for rule in sarif["runs"][0]["tool"]["driver"]["rules"]:
    c = cat[rule["id"]]
    if c.get("spec_ref"):
        assert c["clause"] in rule["help"]["text"], rule["id"]
        assert rule["properties"]["specRef"] == c["spec_ref"], rule["id"]
        seen += 1
    else:
        assert "specRef" not in rule["properties"], rule["id"]
print("SARIF rules quoting their clause:", seen)
PY
fi

# no corpus: said so, still exit 0 (the rule itself was explained)
MDLCHECK_CORPUS=$work/nowhere run explain IQM-JNT-002
expect_rc 0 "explain without a corpus"
expect_grep out 'corpus is not here' "the missing corpus is named"

# several ids, case-insensitive
run explain iqm-jnt-002 MDL-CFG-001
expect_rc 0 "two ids"
expect_grep out '^MDL-CFG-001  ' "the second rule"

# unknown ids: exit 2, nearest ids suggested, nothing on stdout
run explain IQM-JNT-0002
expect_rc 2 "unknown id"
expect_grep err "no rule 'IQM-JNT-0002'.*nearest: IQM-JNT-00[0-9]" "nearest ids"
expect_lines out 0
run explain IQM-JNT-002 NOPE-XYZ-999
expect_rc 2 "one unknown id among known ones"
run explain
expect_rc 2 "no id"
finish
