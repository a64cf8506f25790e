#!/bin/sh
# Every subcommand writes each --format it accepts or refuses it with exit 2 before reading any
# input; none prints text for a format it was asked not to.
. "${srcdir:-.}/tests/cli/cli-lib.sh"

make_bad_parents_iqm "$work/a.iqm" 1
cp "$work/a.iqm" "$work/b.iqm"
# refused SUBCOMMAND ARGS...: one refusal per unwritten format
for f in markdown; do
  for cmd in "" compare convert; do
    case $cmd in
      compare) args="$work/a.iqm $work/b.iqm" ;;
      convert) args="$work/a.iqm $work/c.iqm" ;;
      *) args=$work/a.iqm ;;
    esac
    run $cmd -f $f $args
    expect_rc 2 "${cmd:-validate} -f $f"
    expect_grep err "${cmd:-validate} does not write this report format"
    expect_lines out 0
  done
done
[ -e "$work/c.iqm" ] && fail "convert -f markdown wrote its output"
for f in json sarif github markdown; do
  run explain -f $f IQM-JNT-002
  expect_rc 2 "explain -f $f"
  expect_grep err "explain does not write this report format \(it writes text\)"
  expect_lines out 0
done
run explain -f text IQM-JNT-002
expect_rc 0 "explain -f text"
run -f bogus "$work/a.iqm"
expect_rc 2 "-f bogus"
expect_grep err "unknown report format"
finish
