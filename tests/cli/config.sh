#!/bin/sh
# The configuration file: applied, overridden by the command line, and every mistake reported
# as FILE:LINE:COL: error[MDL-CFG-00N]: ... with exit 2.
. "${srcdir:-.}/tests/cli/cli-lib.sh"

make_empty "$work/empty.bin"
make_bad_parents_iqm "$work/parents.iqm" 6
run "$work/parents.iqm"
set -- $(top_rule out)
rule=${1:-none}
cfg=$work/mdlcheck.yaml

# applied: ignore, severity, fail-on, max-per-rule, max-issues
printf 'ignore: [MDL-FMT-001]\n' >"$cfg"
run --config="$cfg" "$work/empty.bin"
expect_rc 0 "ignore from the config"
printf 'severity:\n  MDL-FMT-001: warning\nfail-on: warning\n' >"$cfg"
run --config "$cfg" "$work/empty.bin"
expect_rc 1 "severity + fail-on from the config"
expect_grep out "warning\[MDL-FMT-001\]"
printf 'max-per-rule: 1\n' >"$cfg"
run --config="$cfg" "$work/parents.iqm"
expect_grep out "\[$rule\]: 5 more diagnostics of this rule were folded"
printf 'max-issues: 1\nmax-per-rule: 0\n' >"$cfg"
run --config="$cfg" "$work/parents.iqm"
expect_grep out "note: output truncated by --max-issues"
printf 'only: [iqe]\nstrict: false\nprofile: engine\n' >"$cfg"
run --config="$cfg" "$work/parents.iqm"
expect_rc 0 "only from the config"
# the whole README example is accepted
printf '# mdlcheck.yaml\nignore: [IQM-ADJ-002]\nonly: [iqm]\nseverity:\n  IQM-VA-005: error\nmax-issues: 200\nmax-per-rule: 20\nfail-on: warning\nprofile: engine\nstrict: false\n' >"$cfg"
run --config="$cfg" "$work/parents.iqm"
expect_rc 1 "README example"
expect_lines err 0

# the command line overrides the file, wherever --config stands
printf 'fail-on: fatal\nmax-per-rule: 1\n' >"$cfg"
run --config="$cfg" "$work/empty.bin"
expect_rc 0 "fail-on: fatal"
run --fail-on=error --config="$cfg" "$work/empty.bin"
expect_rc 1 "--fail-on before --config"
run "$work/empty.bin" --config="$cfg" --fail-on=error
expect_rc 1 "--fail-on after --config and after the file"
run --config="$cfg" --max-per-rule=0 "$work/parents.iqm"
expect_no_grep out "folded" "--max-per-rule=0 did not override the file"

# mistakes: one diagnostic each, at the offending node, exit 2, nothing validated
check_mistake()
{
  # check_mistake ID LINE COL YAML
  printf '%b' "$4" >"$cfg"
  run --config="$cfg" "$work/empty.bin"
  expect_rc 2 "config mistake $1 in: $4"
  expect_grep err "^$cfg:$2:$3: error\[$1\]: " "expected $cfg:$2:$3: error[$1] for: $4"
  expect_lines out 0 "a report was printed despite a bad configuration"
}
check_mistake MDL-CFG-001 2 11 'ignore: [MDL-FMT-001\nmax-issues: 3\n'
check_mistake MDL-CFG-001 1 1 '- just\n- a list\n'
check_mistake MDL-CFG-001 3 1 'fail-on: error\nmax-issues: 2\nfail-on: info\n'
check_mistake MDL-CFG-002 2 1 'max-issues: 5\nmax_issues: 5\n'
check_mistake MDL-CFG-003 1 13 'max-issues: -3\n'
check_mistake MDL-CFG-003 1 10 'fail-on: loud\n'
check_mistake MDL-CFG-003 1 9 'strict: maybe\n'
check_mistake MDL-CFG-003 1 9 'ignore: MDL-FMT-001\n'
check_mistake MDL-CFG-004 3 5 'ignore:\n  - MDL-FMT-001\n  - NOPE-*\n'
check_mistake MDL-CFG-004 2 3 'severity:\n  NOPE-1: error\n'
# every mistake in the file is reported, not only the first
printf 'colour: red\nmax-issues: x\nonly: [zzz]\n' >"$cfg"
run --config="$cfg" "$work/empty.bin"
expect_rc 2 "three mistakes"
expect_grep err "^$cfg:1:1: error\[MDL-CFG-002\]: unknown configuration key 'colour'"
expect_grep err "^$cfg:2:13: error\[MDL-CFG-003\]: bad value for max-issues: x"
expect_grep err "^$cfg:3:8: error\[MDL-CFG-004\]: 'zzz' matches no catalogued rule"
expect_lines err 3

# an unreadable configuration is a configuration error (2), said plainly: exit 3 is kept for
# inputs that could not be read, and nothing was validated here
run --config="$work/none.yaml" "$work/empty.bin"
expect_rc 2 "missing configuration"
expect_grep err "cannot read configuration $work/none.yaml"

finish
