#!/bin/sh
# -q never hides what failed the run: everything at or above --fail-on is printed.
. "$srcdir/tests/cli/cli-lib.sh"

ex=$srcdir/examples/broken-parent.iqm

run -q --fail-on=warning --ignore=IQM-JNT-002 "$ex"
expect_rc 1 "a warning fails the run with --fail-on=warning"
expect_grep out 'warning\[IQM-POS-002\]' "-q prints the warning that failed the run"

run -q --ignore=IQM-JNT-002 "$ex"
expect_rc 0 "the same warning does not fail the default run"
expect_no_grep out 'IQM-POS-002' "-q still hides what does not fail the run"

run -q "$ex"
expect_rc 1
expect_grep out 'error\[IQM-JNT-002\]' "errors are always printed"
expect_no_grep out 'warning' "warnings below --fail-on are hidden"

finish
