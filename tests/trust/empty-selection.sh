#!/bin/sh
# An input that selects no model file is a run that checked nothing: it says what was found and
# exits 2, with a well-formed JSON/SARIF report; --allow-empty (or allow-empty in the config)
# makes that exit 0.
. "$srcdir/tests/cli/cli-lib.sh"

mkdir -p "$work/docs/sub" "$work/models"
printf 'notes\n' >"$work/docs/a.txt"
printf 'notes\n' >"$work/docs/b.md"
printf 'notes\n' >"$work/docs/sub/c.txt"
printf 'hidden\n' >"$work/docs/.hidden.iqm"
cp "$srcdir/corpus/iqm/base/anim.iqm" "$work/models/good.iqm"

run "$work/docs"
expect_rc 2 "a folder without model files"
expect_grep err "no model files under .*docs; 3 other files skipped" "what was found is said"
expect_lines out 0 "nothing is reported valid"

run -f json -o "$work/empty.json" "$work/docs"
expect_rc 2 "json: still exit 2"
if ! $PYTHON -c 'import json,sys; d=json.load(open(sys.argv[1])); sys.exit(0 if d["files"] == [] else 1)' \
    "$work/empty.json"; then
  fail "the JSON report of an empty selection is not well-formed"
fi
run -f sarif -o "$work/empty.sarif" "$work/docs"
expect_rc 2 "sarif: still exit 2"
if ! $PYTHON -c 'import json,sys; d=json.load(open(sys.argv[1])); sys.exit(0 if d["runs"][0]["results"] == [] else 1)' \
    "$work/empty.sarif"; then
  fail "the SARIF report of an empty selection is not well-formed"
fi

# one empty folder among good ones still fails: that folder was meant to hold models
run "$work/models" "$work/docs"
expect_rc 2 "a good folder and an empty one"
expect_grep out 'good\.iqm: valid' "the good folder is still validated"
expect_grep err 'no model files under .*docs' "the empty one is named"

run --allow-empty "$work/docs"
expect_rc 0 "--allow-empty accepts an empty selection"
expect_grep err "no model files under .*docs" "and still says so"

printf 'allow-empty: true\n' >"$work/cfg.yaml"
run --config="$work/cfg.yaml" "$work/docs"
expect_rc 0 "allow-empty: true in the configuration"
printf 'allow-empty: maybe\n' >"$work/cfg.yaml"
run --config="$work/cfg.yaml" "$work/docs"
expect_rc 2 "allow-empty takes a boolean"
expect_grep err 'MDL-CFG-003' "a bad allow-empty value is a configuration error"

# a glob that matches nothing: reported, exit 2, and a well-formed report
run -f json "$work/models/*.egg"
expect_rc 2 "a glob that matches nothing"
expect_grep err 'no file matches' "the pattern is named"
expect_grep out '"files": \[\]' "json report still written"
run --allow-empty "$work/models/*.egg"
expect_rc 0 "--allow-empty also accepts a glob matching nothing"

finish
