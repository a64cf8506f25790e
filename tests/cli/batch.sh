#!/bin/sh
# Batch runs and format-specific options: directories walked (model files only, others counted),
# -j 2 gives the same report as -j 1, the summary, github annotations, --x42-layout.
. "$srcdir/tests/cli/cli-lib.sh"

tree=$work/tree
mkdir -p "$tree/a/b"
cp "$srcdir/corpus/iqm/base/anim.iqm" "$tree/a/good.iqm"
cp "$srcdir/corpus/x42/base/static.x42" "$tree/a/b/good.x42"
printf 'not a model\n' > "$tree/a/notes.txt"
printf 'INTERQUAKEMODEL-garbage' > "$tree/a/b/bad.iqm"

run "$tree"
expect_rc 1 "a directory with one broken model"
expect_grep out '^summary: 3 files, 2 valid, 1 invalid, 0 unreadable; 1 file in directories skipped' "summary line"
expect_grep out 'bad\.iqm: invalid iqm' "the broken file is named invalid"
expect_no_grep out 'notes\.txt' "files without a model extension are not validated in a walk"

# files that could not be checked (past --max-memory: MDL-MEM-002; missing: MDL-IO-001) have no
# verdict: unreadable in the first line and in their formats' lines alike, never invalid there
run --max-memory=1K "$tree/a/good.iqm" "$tree/a/b/bad.iqm" "$tree/a/b/good.x42" "$work/none.iqe"
expect_rc 3 "files that could not be checked"
# (bad.iqm's short header is checked, and invalid, within the bound)
expect_grep out '^summary: 4 files, 0 valid, 1 invalid, 3 unreadable$' "summary line of unchecked files"
expect_grep out '^  iqm 2 +1 file, 0 invalid, 1 unreadable$' "a format's line of an unchecked file"
expect_grep out '^  x42 +1 file, 0 invalid, 1 unreadable$' "a format's line of an unchecked file"
expect_grep out '^  unknown +1 file, 0 invalid, 1 unreadable$' "the line of a file that could not be read"
expect_grep out '^  iqm +1 file, 1 invalid$' "the line of a file checked and invalid"

run -f json -j 1 "$tree"
cp "$work/out" "$work/serial.json"
run -f json -j 2 "$tree"
if ! cmp -s "$work/out" "$work/serial.json"; then
  fail "-j 2 and -j 1 reports differ"
fi

run -f github "$tree/a/b/bad.iqm"
expect_rc 1
expect_grep out '^::(error|warning) file=.*bad\.iqm,title=IQM-HDR-00[0-9]::' "github annotation"

run -j 0 "$tree"
expect_rc 2 "-j 0 is a usage error"

# --x42-layout: a user's profile is used (named in the verdict's assumptions) or reported.
legacy=$srcdir/corpus/x42/base/legacy-v2a.x42
run --x42-layout="$srcdir/spec/x42/v2a.yaml" "$legacy"
expect_rc 0 "legacy V2a file against the declared V2a profile"
expect_grep out 'X42-ASSUME-' "the verdict names its assumptions"
printf 'garbage: [\n' > "$work/bad-layout.yaml"
run --x42-layout="$work/bad-layout.yaml" "$legacy"
expect_rc 2 "an unusable layout profile is a usage error (tests/trust/typos.sh)"
expect_grep err 'x42-layout .*bad-layout\.yaml' "the profile problem is named"

finish
