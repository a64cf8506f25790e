#!/bin/sh
# The smaller edges: a configuration of many unknown keys gives a folded answer, -j above 64 is
# clamped with a note, every subcommand refuses a report format it does not write (exit 2).
. "$srcdir/tests/cli/cli-lib.sh"

good=$srcdir/corpus/iqm/base/anim.iqm

# 20000 unknown keys: ten are shown, the rest folded into one count
awk 'BEGIN { for (i = 0; i < 20000; i++) printf "key%d: 1\n", i }' >"$work/flood.yaml"
run --config="$work/flood.yaml" "$good"
expect_rc 2 "unknown keys are a configuration error"
n=$(grep -c 'MDL-CFG-002' "$work/err")
[ "$n" -le 11 ] || fail "$n lines for unknown keys; expected ten and one summary"
expect_grep err '19990 more diagnostics of this rule were folded' "the rest are counted"

# -j above 64: clamped, said so, the run goes on
run -j 1000 "$good"
expect_rc 0 "-j 1000"
expect_grep err '-j 1000 is more than 64; using 64' "the clamp is noted"
run -j 0 "$good"
expect_rc 2 "-j 0 stays a usage error"

# report formats per subcommand: a format a subcommand does not write is refused, not text
run rules --format=sarif
expect_rc 2 "rules --format=sarif"
expect_grep err 'rules does not write this report format' "why"
expect_lines out 0 "nothing printed as text"
run rules --format=github
expect_rc 2 "rules --format=github"
run --list-rules -f sarif
expect_rc 2 "--list-rules -f sarif"
run rules --format=json
expect_rc 0 "rules --format=json"
run poses -f github "$good"
expect_rc 2 "poses -f github"
run poses -f sarif "$good"
expect_rc 2 "poses -f sarif"
run poses -f json "$good"
expect_rc 0 "poses -f json"
"$MDLCHECK" -f json -o "$work/r.json" "$good" >/dev/null 2>&1
run diff -f sarif "$work/r.json" "$work/r.json"
expect_rc 2 "diff -f sarif"
run diff -f github "$work/r.json" "$work/r.json"
expect_rc 2 "diff -f github"
run diff -f markdown "$work/r.json" "$work/r.json"
expect_rc 0 "diff -f markdown"
for f in text json sarif github; do
  run -f $f "$good"
  expect_rc 0 "validate -f $f"
done

finish
