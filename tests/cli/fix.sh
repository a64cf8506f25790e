#!/bin/sh
# fix.sh - `mdlcheck fix IN [OUT]` as a user runs it: a misaligned IQM (IQM-SEC-002, as shipped
# Red Eclipse animations have) repaired into OUT and in place, --dry-run writing nothing, a clean
# file left untouched, a refusal leaving nothing on disk, the JSON report's two entries, and the
# usage errors. The per-rule cases are corpus/*/fix/ (fix: true).
. "${srcdir:-.}/tests/cli/cli-lib.sh"

base=$srcdir/corpus/iqm/base/anim.iqm
# anim.iqm with its comment moved to offset 1633 (ofs_comment 1633, num_comment 27): IQM-SEC-002
misaligned()
{
  "$PYTHON" - "$base" "$1" <<'PY'
import struct, sys
d = bytearray(open(sys.argv[1], 'rb').read())
struct.pack_into('<I', d, 112, 1633)
struct.pack_into('<I', d, 108, 27)
open(sys.argv[2], 'wb').write(d)
PY
}

# --- into OUT ----------------------------------------------------------------------------------
misaligned "$work/a.iqm"
cp "$work/a.iqm" "$work/a.orig"
run fix "$work/a.iqm" "$work/b.iqm"
expect_rc 0 "a misaligned IQM repaired into OUT"
expect_grep err "info\[MDL-FIX-003\].*IQM-SEC-002 was 1633"
expect_grep out "1 finding repaired, iqm 2, .*valid \(0 warnings\), same model as"
cmp -s "$work/a.iqm" "$work/a.orig" || fail "fix IN OUT changed IN"
run validate "$work/b.iqm"
expect_rc 0 "what fix wrote validates"

# --- --dry-run: the list and the proof, nothing written ------------------------------------------
run fix --dry-run "$work/a.iqm" "$work/c.iqm"
expect_rc 0 "--dry-run of a repairable file"
expect_grep err "MDL-FIX-003"
expect_grep out "nothing written \(--dry-run\)"
[ -e "$work/c.iqm" ] && fail "--dry-run wrote OUT"
run fix --dry-run "$work/a.iqm"
expect_rc 0 "--dry-run in place"
cmp -s "$work/a.iqm" "$work/a.orig" || fail "--dry-run changed IN"
run convert --dry-run "$work/a.iqm" "$work/c.iqe"
expect_rc 2 "--dry-run is fix's"

# --- in place: IN replaced by a new file (a rename), valid afterwards -------------------------------
ino_before=$(ls -i "$work/a.iqm" | cut -d' ' -f1)
run fix "$work/a.iqm"
expect_rc 0 "a misaligned IQM repaired in place"
ino_after=$(ls -i "$work/a.iqm" | cut -d' ' -f1)
[ "$ino_before" = "$ino_after" ] && fail "in place: IN was written into, not replaced by a rename"
run validate "$work/a.iqm"
expect_rc 0 "IN repaired in place validates"
ls -a "$work" | grep -q 'mdlcheck-' && fail "a temporary file was left beside IN"

# --- nothing to fix: exit 0, IN untouched, OUT a copy ------------------------------------------------
cp "$base" "$work/clean.iqm"
ino_before=$(ls -i "$work/clean.iqm" | cut -d' ' -f1)
run fix "$work/clean.iqm"
expect_rc 0 "a clean IQM"
expect_grep out "nothing to fix \(valid\); left as it was"
ino_after=$(ls -i "$work/clean.iqm" | cut -d' ' -f1)
[ "$ino_before" = "$ino_after" ] || fail "a clean file fixed in place was replaced"
run fix "$work/clean.iqm" "$work/copy.iqm"
expect_rc 0 "a clean IQM into OUT"
cmp -s "$base" "$work/copy.iqm" || fail "OUT of a clean file is not a copy of IN"

# --- refused: an error fix does not repair; nothing on disk ------------------------------------------
cp "$srcdir/examples/broken-parent.iqm" "$work/broken.iqm"
run fix "$work/broken.iqm" "$work/never.iqm"
expect_rc 1 "an error fix does not repair"
expect_grep err "error\[MDL-FIX-001\]: IQM-JNT-002"
[ -e "$work/never.iqm" ] && fail "a refused fix wrote OUT"
cp "$work/broken.iqm" "$work/broken.orig"
run fix "$work/broken.iqm"
expect_rc 1 "an error fix does not repair, in place"
cmp -s "$work/broken.iqm" "$work/broken.orig" || fail "a refused fix changed IN"

# --- fix's messages name fix, not the convert stages it runs ------------------------------------------
misaligned "$work/j0.iqm"
run fix "$work/j0.iqm" "$work/nodir/b.iqm"
expect_rc 3 "OUT in a missing folder"
expect_grep err "^mdlcheck: fix: .*nodir/b.iqm is not written: its folder does not exist"
grep -q "convert:" "$work/err" && fail "a message of fix begins with convert:"

# --- the JSON report: IN's entry (findings, the list), OUT's entry ----------------------------------
misaligned "$work/j.iqm"
run fix --format=json "$work/j.iqm" "$work/k.iqm"
expect_rc 0 "fix --format=json"
"$PYTHON" - "$work/out" <<'PY' || fail "fix's JSON report"
import json, sys
r = json.load(open(sys.argv[1]))
f = r["files"]
assert len(f) == 2, f
ids = [m["id"] for m in f[0]["messages"]]
assert ids == ["IQM-SEC-002", "MDL-FIX-003"], ids
assert f[1]["verdict"] == "valid" and f[1]["messages"] == [], f[1]
PY

# --- usage ------------------------------------------------------------------------------------------
run fix
expect_rc 2 "fix without IN"
run fix "$work/a.iqm" "$work/b.iqm" "$work/c.iqm"
expect_rc 2 "fix with three files"
run fix - <"$work/j.iqm"
expect_rc 2 "standard input cannot be replaced"

finish
