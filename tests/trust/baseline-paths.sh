#!/bin/sh
# Baselines and diff match files, not spellings: a baseline recorded inside a project matches
# when the same files are run from the parent directory or by absolute path, and `diff` pairs
# reports made from different directories. A baseline that matches none of the inputs warns on
# stderr (the verdict then counts every diagnostic); reports that share no file get a warning
# from diff.
. "$srcdir/tests/cli/cli-lib.sh"

src=$(cd "$srcdir" && pwd)
MDLCHECK=$(cd "$(dirname "$MDLCHECK")" && pwd)/$(basename "$MDLCHECK")
proj=$work/proj
mkdir -p "$proj/assets"

# run_in DIR ARGS...: run mdlcheck from DIR (what `run` does, in another working directory)
run_in()
{
  _dir=$1
  shift
  rc=0
  (cd "$_dir" && exec "$MDLCHECK" "$@") >"$work/out" 2>"$work/err" || rc=$?
  echo "+ (in $_dir) mdlcheck $* -> $rc"
}
cp "$src/examples/broken-parent.iqm" "$proj/assets/bad.iqm"
cp "$src/corpus/iqm/base/anim.iqm" "$proj/assets/good.iqm"

# recorded inside the project, as the README shows
(cd "$proj" && "$MDLCHECK" -f json -o base.json assets/ >/dev/null 2>&1)
[ -s "$proj/base.json" ] || fail "no baseline was recorded"

# run inside the project: accepted (what worked before still works)
run_in "$proj" --baseline=base.json assets/
expect_rc 0 "same directory: the baseline accepts the recorded problems"

# run from the parent directory
run_in "$work" --baseline=proj/base.json proj/assets/
expect_rc 0 "from the parent directory"
expect_grep out 'baselined' "the problems are marked baselined"
expect_no_grep err 'baseline' "no warning when the baseline matched"

# by absolute path, from elsewhere
run_in / --baseline="$proj/base.json" "$proj/assets/bad.iqm"
expect_rc 0 "by absolute path"

# a new problem is still new when run from elsewhere
cp "$src/examples/broken-parent.iqm" "$proj/assets/new.iqm"
run_in "$work" --baseline=proj/base.json proj/assets/
expect_rc 1 "a file the baseline does not know still fails"
expect_grep out 'new\.iqm:.*error\[IQM-JNT-002\]' "its problem is reported"
rm "$proj/assets/new.iqm"

# a baseline recorded for other files matches nothing: said on stderr; nothing is accepted
mkdir -p "$work/other"
cp "$src/examples/broken-parent.iqm" "$work/other/elsewhere.iqm"
run_in "$work" --baseline=proj/base.json other/elsewhere.iqm
expect_rc 1 "a baseline that matches none of the inputs accepts nothing"
expect_grep err 'baseline .*base\.json records 2 files, none of them among the 1 input' "the warning names it"
expect_grep out 'elsewhere\.iqm:.*error' "the problem is reported, not baselined"
cp "$src/corpus/iqm/base/anim.iqm" "$work/other/clean.iqm"
run_in "$work" --baseline=proj/base.json other/clean.iqm
expect_rc 0 "a clean file stays valid: every diagnostic was counted"
expect_grep err 'none of them among the 1 input' "still warned"

# diff: the old report made inside the project, the new one from the parent directory
(cd "$work" && "$MDLCHECK" -f json -o new.json proj/assets/ >/dev/null 2>&1)
run_in "$work" diff proj/base.json new.json
expect_rc 0 "diff of the same problems seen from two directories"
expect_grep out '^diff: 0 new \(0 errors or fatal\), 0 fixed, 0 changed' "nothing new, nothing fixed"
(cd "$work" && "$MDLCHECK" -f json -o other.json other/ >/dev/null 2>&1)
run_in "$work" diff proj/base.json other.json
expect_grep err 'reports share no file' "reports of different files: a warning"

finish
