#!/bin/sh
# --format=json and --format=sarif validated against spec/report.schema.json and
# spec/sarif-subset.schema.json (python3-jsonschema; skipped, exit 77, only when it is missing).
. "${srcdir:-.}/tests/cli/cli-lib.sh"

if ! "$PYTHON" -c 'import jsonschema' 2>/dev/null; then
  echo "SKIP: $PYTHON with the jsonschema module (Debian: python3-jsonschema) is needed"
  exit 77
fi

make_empty "$work/empty.bin"
make_unknown "$work/unknown file.dat"
make_bad_magic_iqm "$work/badmagic.iqm"
make_bad_parents_iqm "$work/parents.iqm" 8
make_empty "$work/odd$(printf '\377')name:#%.bin" # not UTF-8, and URI delimiters

pairs=""
nrep=0
report()
{
  # report EXPECTED-EXIT ARGS...: write the JSON and the SARIF report of one run
  want=$1
  shift
  nrep=$((nrep + 1))
  for fmt in json sarif; do
    run --format=$fmt "$@"
    expect_rc "$want" "--format=$fmt $*"
    cp "$work/out" "$work/report$nrep.$fmt"
  done
  pairs="$pairs $work/report$nrep.json $work/report$nrep.sarif"
}

report 1 "$work/empty.bin"
report 1 "$work/unknown file.dat" "$work/badmagic.iqm"
report 3 "$work/missing.iqm" "$work/empty.bin"
report 3 ""
report 1 "$work/parents.iqm"
report 1 --max-per-rule=3 "$work/parents.iqm"
report 1 --max-issues=2 --max-per-rule=0 "$work/parents.iqm"
report 0 --fail-on=fatal --severity=MDL-FMT-001=hint "$work/empty.bin"
report 1 --fail-on=info "$work/odd"*
report 0 --ignore=MDL-FMT-001 "$work/empty.bin"
# every format's stats (and a file whose decode gave up, without them)
report 1 "$srcdir"/examples/*.iqm "$srcdir"/examples/*.iqe "$srcdir"/examples/*.egg \
  "$srcdir"/examples/*.qmsh "$srcdir"/examples/*.x42 "$work/badmagic.iqm"
for key in '"extensions"' '"groups"' '"tables"' '"points"' '"partial": true' '"partial": false'; do
  grep -q "$key" "$work/report$nrep.json" || fail "no $key in the stats of the examples"
done
if [ -d "$SAMPLES/iqm" ]; then
  report 0 "$SAMPLES"/iqm/*.iqm
fi
# a compare report: each side's own format (a joined "iqm vs x42" broke the format pattern)
nrep=$((nrep + 1))
for fmt in json sarif; do
  run compare --format=$fmt "$srcdir"/examples/walk.iqm "$srcdir"/examples/walker.x42
  expect_rc 1 "compare --format=$fmt"
  cp "$work/out" "$work/report$nrep.$fmt"
done
pairs="$pairs $work/report$nrep.json $work/report$nrep.sarif"
grep -q '"compared_with"' "$work/report$nrep.json" || fail "compare report without compared_with"
# a --baseline run: everything the earlier report recorded is shown, marked, and not counted
run --format=json --max-per-rule=2 "$work/parents.iqm" "$work/empty.bin"
cp "$work/out" "$work/baseline.json"
make_bad_parents_iqm "$work/parents.iqm" 9 # one repeat more than the baseline knows
report 1 --baseline="$work/baseline.json" --max-per-rule=2 "$work/parents.iqm" "$work/empty.bin"
grep -q '"baselined": true' "$work/report$nrep.json" || fail "nothing was baselined"
grep -q '"baselineState": "unchanged"' "$work/report$nrep.sarif" || fail "no SARIF baselineState"

# shellcheck disable=SC2086 # $pairs is a list of paths without spaces
"$PYTHON" "$srcdir/tests/cli/check_reports.py" "$SCHEMA_DIR" $pairs || fail "reports do not match the schemas"

# the checker itself must be able to fail: a report with a property the schema does not know
sed 's/"truncated": false/"truncated": false, "extra": 1/' "$work/report1.json" >"$work/broken.json"
if "$PYTHON" "$srcdir/tests/cli/check_reports.py" "$SCHEMA_DIR" "$work/broken.json" "$work/report1.sarif" 2>/dev/null; then
  fail "an undocumented property passed the schema check"
fi
sed 's/"level": "error"/"level": "fatal"/' "$work/report1.sarif" >"$work/broken.sarif"
if "$PYTHON" "$srcdir/tests/cli/check_reports.py" "$SCHEMA_DIR" "$work/report1.json" "$work/broken.sarif" 2>/dev/null; then
  fail "a SARIF level outside error/warning/note passed the schema check"
fi

finish
