#!/bin/sh
# One table of options (validator/core/options.def): the README's usage block, the manual's option
# table and the man page's SYNOPSIS and OPTIONS are what doc/optdoc makes of it, --help lists every option
# and subcommand the documents name, and a stale block is caught.
. "${srcdir:-.}/tests/cli/cli-lib.sh"

optdoc=$top_builddir/doc/optdoc
[ -x "$optdoc" ] || { echo "no $optdoc" >&2; exit 99; }

"$optdoc" --check "$srcdir/README.md" "$srcdir/doc/manual.md" "$srcdir/doc/mdlcheck.1" 2>"$work/err" ||
  fail "generated blocks are stale (make update-docs): $(cat "$work/err")"

# the check sees a hand edit inside a block, and --update repairs it
cp "$srcdir/doc/manual.md" "$work/manual.md"
sed -i 's/^| `--strict` | .*/| `--strict` | edited by hand |/' "$work/manual.md"
if "$optdoc" --check "$work/manual.md" 2>"$work/err"; then
  fail "--check accepted an edited option table"
fi
expect_grep err "options:table block is stale"
"$optdoc" --update "$work/manual.md" 2>/dev/null
cmp -s "$work/manual.md" "$srcdir/doc/manual.md" || fail "--update did not restore the table"

# every option the man page documents is one --help lists and the parser takes
run --help
expect_rc 0 "--help"
sed -n 's/^\\fB\\-\\-\([a-z0-9\\-]*\)\\fR.*/\1/p; s/^\\fB\\-[a-z]\\fR, \\fB\\-\\-\([a-z0-9\\-]*\)\\fR.*/\1/p' \
  "$srcdir/doc/mdlcheck.1" | sed 's/\\-/-/g' >"$work/man-options"
[ "$(wc -l <"$work/man-options")" -ge 20 ] || fail "found only $(wc -l <"$work/man-options") options in the man page"
while read -r o; do
  grep -q -- "--$o\b" "$work/out" || fail "--$o is in the man page, not in --help"
done <"$work/man-options"
# every subcommand of the synopsis runs (its --help exits 0), and the synopsis has them all
for cmd in validate poses convert compare diff rules explain; do
  grep -q "^\\\\fBmdlcheck\\\\fR .*\\\\fB$cmd\\\\fR" "$srcdir/doc/mdlcheck.1" ||
    fail "the man SYNOPSIS misses $cmd"
  run $cmd --help
  expect_rc 0 "$cmd --help"
done
grep -q 'x42\\-layout' "$srcdir/doc/mdlcheck.1" || fail "the man page misses --x42-layout"
finish
