#!/bin/sh
# One description of every option (validator/core/options.def) read by one parser
# (core/settings.c): the typos a user makes are refused alike by the command line (exit 2) and
# the configuration file (exit 2); the library, Python and JavaScript faces are tested with the
# same typos in tests/unit/test_api_json.c, tests/python and web/test. Neither the Python module
# nor the JS API holds its own list of options.
. "$srcdir/tests/cli/cli-lib.sh"

good=$srcdir/examples/walk.iqm

check() { # check WORDS ARGS...: exit 2, WORDS on stderr
  words=$1
  shift
  run "$@" "$good"
  expect_rc 2 "$*"
  expect_grep err "$words" "$* says why"
}
check "unknown profile 'pandaa'" --profile=pandaa
check "--max-issues takes a count, not '12x'" --max-issues=12x
check "--max-per-rule takes a count, not '-1'" --max-per-rule=-1
check "unknown severity 'loud' for --fail-on" --fail-on=loud
check "unknown format 'obj' for --assume-format" --assume-format=obj
check "--max-input-size takes a size above 0" --max-input-size=0
check "unknown option '--no-such-option'" --no-such-option
# an option a subcommand does not take is refused, not ignored
run poses --resources "$good"
expect_rc 2 "poses --resources"
expect_grep err "--resources is for validate" "the subcommands taking it are named"

config() { # config WORDS YAML: exit 2, WORDS on stderr
  printf '%s\n' "$2" >"$work/cfg.yaml"
  run --config="$work/cfg.yaml" "$good"
  expect_rc 2 "configuration $2"
  expect_grep err "$1" "configuration $2 says why"
}
config "unknown profile 'pandaa'" "profile: pandaa"
config "MDL-CFG-003.*max-issues: 12x; expected a non-negative whole number" "max-issues: 12x"
config "MDL-CFG-003.*fail-on: loud" "fail-on: loud"
config "MDL-CFG-002.*no-such-key" "no-such-key: 1"

# the faces pass settings through: no option names of their own (they come from the table)
for name in failOn maxIssues maxPerRule maxInputSize assume_format; do
  if grep -n "'$name'" "$srcdir/web/src/api.js"; then
    fail "web/src/api.js names the option $name: the table (options.def) does"
  fi
done
for name in fail_on max_issues max_per_rule max_input_size assume_format profile; do
  if grep -n "[\"']$name[\"']" "$srcdir"/python/mdlcheck/*.py; then
    fail "python/mdlcheck names the option $name: the table (options.def) does"
  fi
done
finish
