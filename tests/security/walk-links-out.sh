#!/bin/sh
# Issue 26 item 5: a directory walk does not follow a symbolic link whose real path leaves the
# argument's. A committed `assets/root -> /` made `mdlcheck assets` walk the whole machine; a
# link to an outside model was validated and quoted. Such a link (to a folder, or to a file with
# a model extension) is noted on stderr and reported as a fatal MDL-IO-010 (the input was not
# checked: exit 3, as an unreadable one); links that stay inside are followed as before;
# --follow-links (command line only) follows the others too.
. "$srcdir/tests/cli/cli-lib.sh"

a=$work/repo/assets
o=$work/outside
mkdir -p "$a/sub" "$o"
cp "$srcdir/corpus/iqm/base/static.iqm" "$a/sub/in.iqm"
cp "$srcdir/corpus/iqm/base/anim.iqm" "$o/secret.iqm"
ln -s / "$a/root"                        # the whole machine
ln -s "$o" "$a/elsewhere"                # a folder outside the argument
ln -s ../../outside/secret.iqm "$a/s.iqm" # an outside model, by a relative link
ln -s /etc/hostname "$a/notes.txt"       # not a model name: never read, counted as other files
ln -s sub "$a/alias"                     # inside: the same folder, skipped as a repeat

walk_run()
{
  rc=0
  timeout 60 "$MDLCHECK" "$@" >"$work/out" 2>"$work/err" || rc=$?
  echo "+ mdlcheck $* -> $rc"
  [ "$rc" -ne 124 ] || fail "the walk does not end (it follows a link out of the tree)"
}

walk_run "$a"
expect_rc 3 "links leading out are inputs that were not checked"
expect_grep err "skipped .*assets/root: a symbolic link that leads out of .*assets \(to /\); --follow-links follows it" "the link to / noted"
expect_grep err "skipped .*assets/elsewhere: a symbolic link that leads out" "the folder link noted"
expect_grep err "skipped .*assets/s\.iqm: a symbolic link that leads out" "the model link noted"
expect_grep out "assets/root: fatal\[MDL-IO-010\]" "the link to / reported"
expect_grep out "assets/elsewhere: fatal\[MDL-IO-010\]" "the folder link reported"
expect_grep out "assets/s\.iqm: fatal\[MDL-IO-010\]" "the model link reported"
expect_grep out "(sub|alias)/in\.iqm: valid" "the tree's own file validated"
expect_no_grep out "secret|notes|etc/" "something outside read"
expect_grep out '^summary: 4 files, 1 valid, 0 invalid, 3 unreadable' "the summary counts the links as unread"

walk_run -f json "$a"
"$PYTHON" - "$work/out" <<'PY' || fail "JSON: the links as fatal MDL-IO-010 entries"
import json, sys
files = {f["path"].rsplit("/", 1)[-1]: f for f in json.load(open(sys.argv[1]))["files"]}
for name in ("root", "elsewhere", "s.iqm"):
    ids = [m["id"] for m in files[name]["messages"]]
    assert ids == ["MDL-IO-010"] and files[name]["verdict"] == "invalid", (name, files[name])
assert files["in.iqm"]["verdict"] == "valid"
PY

# --follow-links opts in (here without the link to /)
rm "$a/root"
walk_run --follow-links "$a"
expect_rc 0 "--follow-links: everything followed is valid"
expect_grep out "elsewhere/secret\.iqm: valid" "the outside folder walked"
expect_no_grep out "MDL-IO-010" "no link reported"

# a link inside an argument that is itself a link: judged against the argument's real path
ln -s "$a" "$work/view"
walk_run "$work/view"
expect_rc 3 "the argument a link, its outside links still refused"
expect_grep out "view/(sub|alias)/in\.iqm: valid" "the argument's own tree walked"
finish
