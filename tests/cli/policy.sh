#!/bin/sh
# --ignore, --only, --severity, --fail-on, --strict on the command line.
. "${srcdir:-.}/tests/cli/cli-lib.sh"

make_empty "$work/empty.bin"
make_bad_parents_iqm "$work/parents.iqm" 4
run "$work/parents.iqm"
set -- $(top_rule out)
rule=${1:-none}
prefix=${rule%-*}

# --ignore by id, by prefix, by format name
for pat in "$rule" "$prefix-*" iqm; do
  run --ignore="$pat" "$work/parents.iqm"
  expect_no_grep out "\[$rule\]" "--ignore=$pat still reports $rule"
done
run --ignore="$rule" --format=json "$work/parents.iqm"
expect_no_grep out "\"id\": \"$rule\""

# --only: other formats' rules go, the tool's own rules stay
run --only=iqm "$work/parents.iqm"
expect_grep out "\[$rule\]"
run --only=iqe "$work/parents.iqm"
expect_no_grep out "\[IQM-" "--only=iqe reports IQM rules"
expect_rc 0 "--only=iqe on an IQM file"
run --only=iqe "$work/empty.bin"
expect_rc 1 "--only never hides MDL- rules"
expect_grep out "error\[MDL-FMT-001\]"

# --severity re-grades; the verdict follows
run --severity="$rule=warning" "$work/parents.iqm"
expect_grep out "warning\[$rule\]"
expect_no_grep out "error\[$rule\]"
run --severity=MDL-FMT-001=info "$work/empty.bin"
expect_rc 0 "error re-graded to info"
expect_grep out "info\[MDL-FMT-001\]"
run --severity=MDL-FMT-001=fatal "$work/empty.bin"
expect_rc 1 "re-graded to fatal"
expect_grep out "fatal\[MDL-FMT-001\]"

# --fail-on moves the threshold both ways
run --severity=MDL-FMT-001=warning "$work/empty.bin"
expect_rc 0 "a warning passes by default"
run --severity=MDL-FMT-001=warning --fail-on=warning "$work/empty.bin"
expect_rc 1 "--fail-on=warning"
expect_grep out "empty.bin: invalid"
run --fail-on=fatal "$work/empty.bin"
expect_rc 0 "--fail-on=fatal lets an error pass"
expect_grep out "empty.bin: valid"
run --fail-on=fatal --format=json "$work/empty.bin"
expect_grep out '"fail_on": "fatal"'
expect_grep out '"verdict": "valid"'
run --fail-on=hint --severity=MDL-FMT-001=hint "$work/empty.bin"
expect_rc 1 "--fail-on=hint"

# --assume-format overrides detection
run --assume-format=iqm "$work/empty.bin"
expect_no_grep out "MDL-FMT-001" "--assume-format still ran detection"
expect_grep out "empty.bin: invalid iqm"

finish
