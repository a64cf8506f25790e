#!/bin/sh
# Exit codes: 0 valid, 1 some input invalid, 2 usage or configuration error, 3 unreadable input.
. "${srcdir:-.}/tests/cli/cli-lib.sh"

make_empty "$work/empty.bin"
make_unknown "$work/unknown.bin"
make_bad_magic_iqm "$work/badmagic.iqm"

# 1: invalid inputs
run "$work/empty.bin"
expect_rc 1 "empty file"
expect_grep out "^$work/empty.bin:0: error\[MDL-FMT-001\]: "
expect_grep out "^$work/empty.bin: invalid unknown: 1 error, 0 warnings$"

run "$work/unknown.bin"
expect_rc 1 "unrecognised content"
expect_grep out "error\[MDL-FMT-001\]: .*unrecognised content"

run "$work/badmagic.iqm"
expect_rc 1 "bad magic"
expect_grep out "^$work/badmagic.iqm:[0-9]+: fatal\[IQM-HDR-001\]: "
expect_grep out "^$work/badmagic.iqm: invalid iqm.*1 fatal"

# 0: nothing at or above --fail-on (here: the only diagnostic is dropped)
run --ignore=MDL-FMT-001 "$work/empty.bin"
expect_rc 0 "empty file with its only rule ignored"
expect_grep out "^$work/empty.bin: valid unknown: 0 errors, 0 warnings$"

# 3: unreadable input; it wins over an invalid one, and the report still covers both
run "$work/missing.iqm"
expect_rc 3 "missing file"
expect_grep out "^$work/missing.iqm: fatal\[MDL-IO-001\]: cannot read input: "
run "$work/empty.bin" "$work/missing.iqm"
expect_rc 3 "invalid and missing"
expect_grep out "empty.bin: invalid"
expect_grep out "missing.iqm: invalid"

# 2: usage errors, reported on stderr with nothing on stdout
for args in "--bogus $work/empty.bin" "" "--format=xml $work/empty.bin" \
            "--max-issues=abc $work/empty.bin" "--max-issues=-1 $work/empty.bin" \
            "--max-per-rule= $work/empty.bin" "--fail-on=loud $work/empty.bin" \
            "--ignore=NOPE-XYZ-* $work/empty.bin" "--only=nosuchformat $work/empty.bin" \
            "--severity=MDL-FMT-001 $work/empty.bin" "--severity=MDL-FMT-001=loud $work/empty.bin" \
            "--severity=NOPE-1=error $work/empty.bin" "--assume-format=obj $work/empty.bin"; do
  # shellcheck disable=SC2086 # word splitting is the point
  run $args
  expect_rc 2 "usage: '$args'"
  expect_lines out 0
  expect_grep err "mdlcheck"
done

# options after the files are options too
run "$work/empty.bin" --format=json
expect_rc 1 "option after a file"
expect_grep out '"verdict": "invalid"'

# --help and --version succeed
run --help
expect_rc 0 "--help"
expect_grep out "^usage: mdlcheck"
expect_grep out "exit codes"
run --version
expect_rc 0 "--version"
expect_grep out "^mdlcheck [0-9]+\.[0-9]+\.[0-9]+$"

# the real samples validate with no error
if [ -d "$SAMPLES/iqm" ]; then
  for f in "$SAMPLES"/iqm/*.iqm; do
    [ -f "$f" ] || continue
    run "$f"
    expect_rc 0 "sample $f"
    expect_no_grep out "(fatal|error)\[" "sample $f has errors"
  done
else
  echo "no samples at $SAMPLES/iqm: that part skipped"
fi

finish
