#!/bin/sh
# Typos are usage errors (exit 2) at start, before any file is read: an unknown --profile (flag
# or configuration key), a --x42-layout file that is missing or does not parse (with or without a
# legacy X42 input), an unknown subcommand (with the nearest one suggested).
. "$srcdir/tests/cli/cli-lib.sh"

good=$srcdir/corpus/iqm/base/anim.iqm
legacy=$srcdir/corpus/x42/base/legacy-v2a.x42
# a FIFO nobody writes to: reading it would block, so exit 2 here proves nothing was read
mkfifo "$work/fifo.iqm"

run --profile=engin "$good"
expect_rc 2 "an unknown --profile"
expect_grep err "unknown profile 'engin'" "the profile is named"
expect_grep err 'engine' "the known profiles are listed"

rc=0
timeout 10 "$MDLCHECK" --profile=pnda "$work/fifo.iqm" >"$work/out" 2>"$work/err" || rc=$?
expect_rc 2 "the profile is checked before any input is read"

for p in engine panda x42-v2a; do
  run --profile=$p "$good"
  expect_rc 0 "--profile=$p is known"
done

printf 'profile: engien\n' >"$work/cfg.yaml"
run --config="$work/cfg.yaml" "$good"
expect_rc 2 "an unknown profile in the configuration"
expect_grep err "unknown profile 'engien'.*--config" "the configuration is named"

# --x42-layout: missing, unparsable; with no legacy X42 among the inputs as well
run --x42-layout="$work/none.yaml" "$good"
expect_rc 2 "a missing --x42-layout file, no X42 input"
expect_grep err 'x42-layout .*none\.yaml' "the file is named"
run --x42-layout="$work/none.yaml" "$legacy"
expect_rc 2 "a missing --x42-layout file, a legacy X42 input"
# the tool (not the library) reads $MDLCHECK_X42_LAYOUT when --x42-layout is not given
MDLCHECK_X42_LAYOUT="$work/none.yaml"; export MDLCHECK_X42_LAYOUT
run "$good"
expect_rc 2 "a missing \$MDLCHECK_X42_LAYOUT file"
expect_grep err 'none\.yaml' "the file is named"
unset MDLCHECK_X42_LAYOUT
printf 'garbage: [\n' >"$work/bad.yaml"
run --x42-layout="$work/bad.yaml" "$legacy"
expect_rc 2 "an unparsable --x42-layout file"
expect_grep err 'does not parse' "why it is refused"
run --x42-layout="$srcdir/spec/x42/v2a.yaml" --profile=x42-v2a "$legacy"
expect_rc 0 "a good layout file and a known x42 profile"

# subcommands
run cnvert "$good" "$work/out.iqe"
expect_rc 2 "a mistyped subcommand"
expect_grep err "unknown command 'cnvert'; did you mean 'convert'" "the nearest subcommand"
[ -e "$work/out.iqe" ] && fail "a mistyped convert wrote a file"
run rulez
expect_rc 2 "rulez"
expect_grep err "did you mean 'rules'"
# an existing file named like a word is still a file
cp "$good" "$work/model"
abs=$(cd "$(dirname "$MDLCHECK")" && pwd)/$(basename "$MDLCHECK")
(cd "$work" && "$abs" model >/dev/null 2>&1) || fail "an existing file named 'model' is not validated"

finish
