#!/bin/sh
# convert-write.sh - issue 26 items 7 and 10: `mdlcheck convert` writes OUT whole or not at all, and only
# over a regular file. A committed symbolic link under OUT's name must not redirect the write
# (its target stays as it was), a FIFO must not block the job, a kill mid-write must leave the old
# OUT whole, and an OUT that was not written is a fatal MDL-IO-* diagnostic (exit 3), never
# "valid". Nothing but OUT is left on disk: no temporary file after a failure or a refusal.
. "${srcdir:-.}/tests/cli/cli-lib.sh"

cp "$srcdir/corpus/core/base/pair.iqe" "$work/a.iqe"
mkdir "$work/d"

# listing: the names in $work/d, one line
listing() { ls -A "$work/d" | tr '\n' ' '; }

# json_out_rule RULE: the report's output entry is invalid with exactly that one diagnostic
json_out_rule()
{
  "$PYTHON" - "$work/out" "$1" <<'PY'
import json, sys
f = json.load(open(sys.argv[1]))["files"]
ok = len(f) == 2 and f[1]["verdict"] == "invalid" and [m["id"] for m in f[1]["messages"]] == [sys.argv[2]] \
    and f[1]["messages"][0]["severity"] == "fatal"
if not ok:
    print(json.dumps(f, indent=1), file=sys.stderr)
sys.exit(0 if ok else 1)
PY
}

# --- a symbolic link as OUT: refused, its target untouched ------------------------------------
echo "not a model: the file a committed link points at" >"$work/target.txt"
cp "$work/target.txt" "$work/target.orig"
ln -s ../target.txt "$work/d/out.iqm"
run convert --format=json "$work/a.iqe" "$work/d/out.iqm"
expect_rc 3 "OUT is a symbolic link"
json_out_rule MDL-IO-004 || fail "a symbolic link as OUT is not a fatal MDL-IO-004 in the report"
cmp -s "$work/target.txt" "$work/target.orig" || fail "the link's target was written over"
[ -L "$work/d/out.iqm" ] || fail "the link itself was replaced"
[ "$(listing)" = "out.iqm " ] || fail "files left beside the link: $(listing)"
rm "$work/d/out.iqm"

# a link to a directory or a dangling link is a link too: not followed to create a file there
ln -s ../nowhere.iqm "$work/d/dangling.iqm"
run convert "$work/a.iqe" "$work/d/dangling.iqm"
expect_rc 3 "OUT is a dangling symbolic link"
expect_grep err "fatal\[MDL-IO-004\].*symbolic link" "a dangling link as OUT is not refused"
[ -e "$work/nowhere.iqm" ] && fail "a file was created where the dangling link points"
rm "$work/d/dangling.iqm"

# --- a FIFO as OUT: refused without being opened (opening it for writing would block) -----------
if mkfifo "$work/d/pipe.iqm" 2>/dev/null; then
  rc=0
  timeout 20 "$MDLCHECK" convert "$work/a.iqe" "$work/d/pipe.iqm" >"$work/out" 2>"$work/err" || rc=$?
  [ "$rc" -eq 124 ] && fail "convert blocked on a FIFO as OUT"
  expect_rc 3 "OUT is a FIFO"
  expect_grep err "fatal\[MDL-IO-004\].*FIFO" "a FIFO as OUT is not refused as one"
  [ -p "$work/d/pipe.iqm" ] || fail "the FIFO was replaced"
  [ "$(listing)" = "pipe.iqm " ] || fail "files left beside the FIFO: $(listing)"
  rm "$work/d/pipe.iqm"
else
  echo "SKIP: mkfifo failed: the FIFO case is not run"
fi

# --- a directory as OUT -----------------------------------------------------------------------
mkdir "$work/d/dir.iqm"
run convert "$work/a.iqe" "$work/d/dir.iqm"
expect_rc 3 "OUT is a directory"
expect_grep err "fatal\[MDL-IO-004\].*directory"
[ "$(listing)" = "dir.iqm " ] || fail "files left beside the directory: $(listing)"
rmdir "$work/d/dir.iqm"

# --- permissions: a replaced file keeps its mode; a new one gets the umask's --------------------
run convert "$work/a.iqe" "$work/d/m.iqm"
expect_rc 0 "convert to a new file"
chmod 640 "$work/d/m.iqm"
run convert "$work/a.iqe" "$work/d/m.iqm"
expect_rc 0 "convert over a file of mode 640"
mode=$(stat -c %a "$work/d/m.iqm")
[ "$mode" = 640 ] || fail "the replaced OUT has mode $mode, not the 640 it had"
rm "$work/d/m.iqm"
(umask 077 && "$MDLCHECK" convert -q "$work/a.iqe" "$work/d/u.iqm") || fail "convert under umask 077"
mode=$(stat -c %a "$work/d/u.iqm")
[ "$mode" = 600 ] || fail "a new OUT under umask 077 has mode $mode, not 600"
rm "$work/d/u.iqm"
[ -z "$(listing)" ] || fail "files left after writing: $(listing)"

# --- a refusal writes nothing ---------------------------------------------------------------------
# QMSH holds no model without a mesh (MDL-CNV-004): refused before writing, so no OUT, no temporary.
{ echo '# Inter-Quake Export'; echo 'joint "root" -1'; echo 'pq 0 0 0 0 0 0 1'; } >"$work/bones.iqe"
run convert "$work/bones.iqe" "$work/d/r.qmsh"
expect_rc 1 "a model QMSH refuses"
[ -z "$(listing)" ] || fail "a refusal left files: $(listing)"

# --- issue 26 item 10: a name holding a quote is refused by the Egg writer -----------------------
# Egg strings have no escape: a valid bare IQE joint name a"b written as "a"b" would end the
# name early and read the rest as egg structure. Refused before writing: MDL-CNV-001, no file.
{ echo '# Inter-Quake Export'; echo 'joint a"b -1'; echo 'pq 0 0 0 0 0 0 1'; echo 'mesh m'
  echo 'vp 0 0 0'; echo 'vp 1 0 0'; echo 'vp 0 1 0'; echo 'vb 0 1'; echo 'vb 0 1'; echo 'vb 0 1'
  echo 'fm 0 1 2'; } >"$work/quote.iqe"
run "$work/quote.iqe"
expect_rc 0 "the IQE with joint a\"b validates"
run convert "$work/quote.iqe" "$work/d/quote.egg"
expect_rc 1 "an Egg of a name holding a quote"
expect_grep err "error\[MDL-CNV-001\].*quote" "the quote is not the refusal's reason"
expect_no_grep err "EGG-" "the egg was written and then found broken"
[ -z "$(listing)" ] || fail "the refused egg left files: $(listing)"

# --- kill -9 mid-write: the old OUT whole -----------------------------------------------------------
# strace kills mdlcheck as it makes its second write(2) (the IQM writer writes OUT in pieces):
# the first piece is written already. Skipped, saying so, without strace or where tracing is
# not allowed.
head -c 100000 /dev/zero | tr '\0' 'x' >"$work/d/old.iqm"
cp "$work/d/old.iqm" "$work/old.copy"
if command -v strace >/dev/null 2>&1 && strace -qq -o /dev/null true 2>/dev/null; then
  # killed at the first fsync or ftruncate: after every byte is written, before the file is
  # whole under OUT's name (the code that wrote OUT in place cut its old tail with ftruncate
  # after writing: killed there, OUT was new bytes followed by the old tail)
  strace -qq -o /dev/null -e trace=fsync,ftruncate -e inject=fsync,ftruncate:signal=SIGKILL \
    "$MDLCHECK" convert -q "$work/a.iqe" "$work/d/old.iqm" >/dev/null 2>&1 &
  wait $! 2>/dev/null
  cmp -s "$work/old.copy" "$work/d/old.iqm" ||
    fail "a kill mid-write changed OUT: $(head -c 16 "$work/d/old.iqm" | tr -c '[:print:]' '.')..."
  # what a kill leaves is at most the temporary file (nothing can remove it): the old OUT is whole
  rm -f "$work"/d/.old.iqm.mdlcheck-*
  # and at the first write (nothing of the new bytes yet)
  strace -qq -o /dev/null -e trace=write -e inject=write:signal=SIGKILL:when=1 \
    "$MDLCHECK" convert -q "$work/a.iqe" "$work/d/old.iqm" >/dev/null 2>&1 &
  wait $! 2>/dev/null
  cmp -s "$work/old.copy" "$work/d/old.iqm" || fail "a kill at the first write changed OUT"
  rm -f "$work"/d/.old.iqm.mdlcheck-*
else
  echo "SKIP: strace is missing or cannot trace here: the kill mid-write case is not run"
fi
run convert "$work/a.iqe" "$work/d/old.iqm"
expect_rc 0 "convert over old.iqm after the kills"
[ "$(listing)" = "old.iqm " ] || fail "files left after replacing old.iqm: $(listing)"

finish
