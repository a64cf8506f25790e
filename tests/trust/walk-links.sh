#!/bin/sh
# Directory walks (fts): a symbolic link loop neither hangs nor repeats files; each file is
# validated once (device + inode) and every skipped link is named on stderr. Sorted order and
# hidden-entry skipping are kept.
. "$srcdir/tests/cli/cli-lib.sh"

root=$work/tree
mkdir -p "$root/sub/deeper" "$root/.git"
cp "$srcdir/corpus/iqm/base/anim.iqm" "$root/sub/a.iqm"
cp "$srcdir/corpus/iqm/base/static.iqm" "$root/sub/deeper/b.iqm"
cp "$srcdir/corpus/iqm/base/static.iqm" "$root/.git/hidden.iqm"
ln -s .. "$root/sub/up"                   # a relative loop
ln -s "$root" "$root/sub/deeper/home"     # an absolute link back to the root
ln -s sub "$root/zlink"                   # a link to a directory walked already
ln "$root/sub/a.iqm" "$root/sub/hard.iqm" # a hard link: the same file under a second name

# run_walk ARGS...: `run` under a time limit, a hang being the failure looked for
run_walk()
{
  rc=0
  timeout 20 "$MDLCHECK" "$@" >"$work/out" 2>"$work/err" || rc=$?
  echo "+ mdlcheck $* -> $rc"
  [ "$rc" -ne 124 ] || fail "the walk hangs on a symbolic link loop"
}

run_walk "$root"
expect_rc 0 "two valid files"
n=$(grep -c ': valid' "$work/out")
[ "$n" -eq 2 ] || fail "$n verdicts for two files"
expect_grep out '^summary: 2 files, 2 valid' "each file once"
expect_grep out 'tree/sub/a\.iqm: valid' "a.iqm by its first path in sorted order"
expect_grep out 'tree/sub/deeper/b\.iqm: valid' "b.iqm"
expect_no_grep out 'hidden' "hidden folders stay skipped"
expect_grep err 'skipped .*tree/sub/up: a link back to its ancestor .*tree' "the relative loop is named"
expect_grep err 'skipped .*tree/sub/deeper/home: a link back to its ancestor' "the absolute loop is named"
expect_grep err 'skipped .*tree/zlink: the same directory as .*tree/sub' "the repeated folder is named"
expect_grep err 'skipped .*tree/sub/hard\.iqm: the same file as .*tree/sub/a\.iqm' "the hard link is named"

# sorted, deterministic: the same run gives the same report
cp "$work/out" "$work/first"
run_walk "$root"
cmp -s "$work/out" "$work/first" || fail "two walks of the same tree differ"

# a folder given twice, or inside another given one, is walked once
run_walk "$root" "$root/sub"
expect_rc 0 "the root and a folder inside it"
expect_grep out '^summary: 2 files' "files under both arguments counted once"

finish
