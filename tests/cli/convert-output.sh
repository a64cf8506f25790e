#!/bin/sh
# convert-output.sh - the file `mdlcheck convert` writes: OUT may be IN itself (IN is read
# before it is written over: the proof compares the written file with what IN said, not with
# itself), an existing OUT is replaced whole (a temporary file renamed over it; left as it was
# when a write fails), and a file written byte for byte as its input gets the same findings and
# the same proof figures as any other. Links, FIFOs and kills mid-write: tests/security/convert-write.sh.
. "${srcdir:-.}/tests/cli/cli-lib.sh"

# the two-joint skinned triangle the compare cases share
iqe()
{
  cat "$srcdir/corpus/core/base/pair.iqe"
}

# the counts of a summary line's proof: "6 poses 3 vertices 1 triangles"
figures() { sed -n 's/.*(\([0-9]* poses*\),.*; \([0-9]* vert[a-z]*\),.*; \([0-9]* triangles*\)).*/\1 \2 \3/p' "$work/out"; }

# --- OUT is IN ---------------------------------------------------------------------------------
# The writer drops comments: the IQE written over itself is much shorter than the one read (a
# mapping of IN read past the new end of the file was a bus error).
{
  iqe
  i=0
  while [ $i -lt 200 ]; do
    echo "# a comment the IQE writer drops, so the file it writes over this one is shorter"
    i=$((i + 1))
  done
} >"$work/self.iqe"
run convert "$work/self.iqe" "$work/self.iqe"
expect_rc 0 "an IQE converted onto itself"
expect_grep out "same model as .*self\.iqe, lossless"
run "$work/self.iqe"
expect_rc 0 "the IQE written over its input validates"
if grep -q "comment the IQE writer drops" "$work/self.iqe"; then
  fail "self.iqe was not written over"
fi

# The corpus' anim.iqm is not laid out as the writer lays it out: written over itself, its
# sections move (the proof once read the moved bytes as IN's and found names like 'wetness').
cp "$srcdir/corpus/iqm/base/anim.iqm" "$work/self.iqm"
run convert "$work/self.iqm" "$work/self.iqm"
expect_rc 0 "an IQM converted onto itself"
expect_grep out "same model as .*self\.iqm, lossless"
expect_no_grep err "MDL-CMP"
if cmp -s "$srcdir/corpus/iqm/base/anim.iqm" "$work/self.iqm"; then
  fail "self.iqm: expected the writer's own layout, got the input's bytes"
fi

# --- an existing OUT is written over ---------------------------------------------------------
iqe >"$work/a.iqe"
head -c 100000 /dev/zero | tr '\0' 'x' >"$work/big.iqm" # longer than what is written
run convert "$work/a.iqe" "$work/big.iqm"
expect_rc 0 "convert over a longer file"
size=$(wc -c <"$work/big.iqm" | tr -d ' ')
expect_grep out "iqm 2, $size bytes" "big.iqm is $size bytes, not the size the summary names"
run "$work/big.iqm"
expect_rc 0 "the IQM written over a longer file validates"
printf 'x' >"$work/small.iqm" # shorter than what is written
run convert "$work/a.iqe" "$work/small.iqm"
expect_rc 0 "convert over a shorter file"
if ! cmp -s "$work/big.iqm" "$work/small.iqm"; then
  fail "one model written over files of two sizes gave two files"
fi

# --- a write that fails leaves the old OUT whole ---------------------------------------------
# The bytes go to a temporary file beside OUT, renamed over it once written and flushed: when
# the file system fills midway, OUT keeps its old bytes (exit 3, MDL-IO-003 in the report) and
# the temporary file is removed. A 16 KiB tmpfs (root only: skipped, saying so, where mount is
# refused).
mkdir "$work/full"
if mount -t tmpfs -o size=16k tmpfs "$work/full" 2>/dev/null; then
  { echo '# Inter-Quake Export'; echo 'mesh "m"'
    i=0; while [ $i -lt 3000 ]; do echo "vp $i 0 0"; i=$((i + 1)); done
    echo 'fm 0 1 2'; } >"$work/many.iqe"
  head -c 6000 /dev/zero | tr '\0' 'x' >"$work/full/old.iqm"
  cp "$work/full/old.iqm" "$work/old.iqm"
  run convert "$work/many.iqe" "$work/full/old.iqm"
  expect_rc 3 "convert onto a full file system"
  expect_grep err "cannot write .*old.iqm.*left as it was" "the failed write is not named"
  expect_grep err "fatal\[MDL-IO-003\]" "the unwritten OUT is not a fatal MDL-IO-003"
  if ! cmp -s "$work/old.iqm" "$work/full/old.iqm"; then
    fail "a failed write changed old.iqm ($(wc -c <"$work/full/old.iqm" | tr -d ' ') bytes), not left it whole"
  fi
  if [ "$(ls -A "$work/full")" != "old.iqm" ]; then
    fail "a failed write left files beside OUT: $(ls -A "$work/full" | tr '\n' ' ')"
  fi
  run convert --format=json "$work/many.iqe" "$work/full/old.iqm"
  expect_rc 3 "convert onto a full file system (JSON)"
  "$PYTHON" - "$work/out" <<'PY' || fail "the unwritten OUT's JSON entry is not invalid with MDL-IO-003"
import json, sys
f = json.load(open(sys.argv[1]))["files"]
ok = len(f) == 2 and f[1]["verdict"] == "invalid" and [m["id"] for m in f[1]["messages"] if m["severity"] == "fatal"] == ["MDL-IO-003"]
sys.exit(0 if ok else 1)
PY
  umount "$work/full"
else
  echo "SKIP: no tmpfs could be mounted (not root?): the failed-write case is not run"
fi

# --- a file written byte for byte as its input --------------------------------------------------
# a.iqm is the writer's own output, so writing it again reproduces it: the proof's figures are
# those of the conversion that made it (same model, same count of poses, vertices, triangles).
run convert "$work/a.iqe" "$work/a.iqm"
expect_rc 0 "convert the IQE to IQM"
from_iqe=$(figures)
run convert "$work/a.iqm" "$work/again.iqm"
expect_rc 0 "convert the IQM to IQM"
again=$(figures)
if ! cmp -s "$work/a.iqm" "$work/again.iqm"; then
  fail "the writer did not reproduce its own IQM (this test relies on it)"
fi
if [ -z "$again" ] || [ "$again" != "$from_iqe" ]; then
  fail "proof figures of the identical rewrite '$again' differ from the conversion's '$from_iqe'"
fi

# collapsed.iqm has a warning (IQM-MSH-005) and the writer reproduces it byte for byte: the
# written file has the same warning at the same place, as validating it finds.
base=$srcdir/corpus/iqm/base/collapsed.iqm
run convert --format=json "$base" "$work/collapsed.iqm"
expect_rc 0 "convert collapsed.iqm"
cp "$work/out" "$work/convert.json"
if ! cmp -s "$base" "$work/collapsed.iqm"; then
  fail "the writer did not reproduce collapsed.iqm (this test relies on it)"
fi
run --format=json "$work/collapsed.iqm"
expect_rc 0 "validate the written collapsed.iqm"
"$PYTHON" - "$work/convert.json" "$work/out" <<'PY' || fail "the written file's findings in convert's report are not validation's"
import json, sys
conv = json.load(open(sys.argv[1]))["files"]
val = json.load(open(sys.argv[2]))["files"][0]
def msgs(f):
    return [(m["id"], m["severity"], m.get("offset"), m.get("path"), m.get("actual")) for m in f["messages"]]
ok = len(conv) == 2 and msgs(conv[1]) == msgs(val) == msgs(conv[0]) and msgs(val) \
    and conv[1]["counts"] == val["counts"] and conv[1]["stats"] == val["stats"]
if not ok:
    print("convert:", conv[1]["counts"], msgs(conv[1]), file=sys.stderr)
    print("validate:", val["counts"], msgs(val), file=sys.stderr)
sys.exit(0 if ok else 1)
PY

# --- -o FILE in text: the report goes to FILE (it was ignored: no file, exit 0; review B) ------
iqe >"$work/pair.iqe"
rm -f "$work/rep.txt"
run convert "$work/pair.iqe" "$work/o.iqm" -o "$work/rep.txt"
expect_rc 0 "convert with -o FILE"
[ -s "$work/rep.txt" ] && grep -q "same model as .*pair\.iqe" "$work/rep.txt" ||
  fail "convert -o rep.txt: the summary line is not in rep.txt"
[ -s "$work/out" ] && fail "convert -o rep.txt: the summary line still went to standard output"
rm -f "$work/rep.txt"
run fix "$work/pair.iqe" "$work/f.iqe" -o "$work/rep.txt"
expect_rc 0 "fix with -o FILE"
grep -q "pair\.iqe: nothing to fix" "$work/rep.txt" 2>/dev/null || fail "fix -o rep.txt: the summary line is not in rep.txt"
printf 'not a model' >"$work/bad.iqe"
rm -f "$work/rep.txt"
run convert "$work/bad.iqe" "$work/o2.iqm" -o "$work/rep.txt"
expect_rc 1 "convert of a bad file with -o FILE"
grep -q "bad\.iqe" "$work/rep.txt" 2>/dev/null || fail "convert -o rep.txt: the refused file's report is not in rep.txt"
run convert "$work/pair.iqe" "$work/o3.iqm" -o "$work/no/such/dir/rep.txt"
expect_rc 3 "convert with an -o FILE that cannot be written"
expect_grep err "cannot write"

finish
