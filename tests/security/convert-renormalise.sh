#!/bin/sh
# Issue 26 item 12 (its third case, QMSH key rotations renormalised): a QMSH written by convert
# has unit key rotations. Two inputs:
# - an IQE frame with a quaternion of norm 3 (only a warning there, IQE-POS-001) converts to a QMSH
#   that validates clean. This guards the pipeline end to end; it does not reach the QMSH writer's
#   renormalisation (qmsh_convert.c), since the IQE decoder normalises pq rotations first.
# - a joint whose base pose scales non-uniformly (1 2 1) and a frame that rotates it 45 degrees:
#   the QMSH key (local times the inverse bind matrix) is then sheared, and the quaternion taken
#   from its normalised rows has length 0.985 (QMSH-KEY-003 beyond 1e-3). The writer
#   renormalises it; the shear itself is dropped (announced by the proof, exit 1) and the bytes
#   are written to be inspected, which must validate. Checked: with the writer's renormalisation
#   removed, the written bytes have QMSH-KEY-003, do not validate, and nothing is written.
# The other cases of item 12 are conformance cases: no mesh to QMSH, MDL-CNV-004-t01; 65 bones to
# QMSH, MDL-CNV-001-t04; an X42 inverse bind no float holds, MDL-CNV-001-t05.
. "${srcdir:-.}/tests/cli/cli-lib.sh"

sed 's/^pq 0 0 0.5 0 0 0 1$/pq 0 0 0.5 0 0 0 3/' "$srcdir/examples/skinned.iqe" >"$work/rot.iqe"
grep -q '^pq 0 0 0.5 0 0 0 3$' "$work/rot.iqe" || { echo "examples/skinned.iqe changed" >&2; exit 99; }

run "$work/rot.iqe"
expect_rc 0 "the input is valid"
expect_grep out 'IQE-POS-001' "the input's quaternion is not unit (a warning)"

# the losses QMSH announces for this model (no loop flag, no vertex colours) are accepted
run convert --accept-loss=MDL-CNV-003,MDL-CNV-013 "$work/rot.iqe" "$work/rot.qmsh"
expect_rc 0 "convert to QMSH with the announced losses accepted"
run "$work/rot.qmsh"
expect_rc 0 "the written QMSH validates"
expect_no_grep out 'QMSH-KEY' "no key rotation finding in the written QMSH"
run poses -f json "$work/rot.qmsh"
expect_rc 0 "poses of the written QMSH"
"$PYTHON" - "$work/out" <<'PY' || fail "a rotation of the written QMSH is not a unit quaternion"
import json, math, sys
doc = json.load(open(sys.argv[1]))
bad = []
def walk(x):
    if isinstance(x, dict):
        for k, v in x.items():
            if k in ("r", "rotation") and isinstance(v, list) and len(v) == 4:
                n = math.sqrt(sum(c * c for c in v))
                if abs(n - 1) > 1e-4:
                    bad.append(v)
            else:
                walk(v)
    elif isinstance(x, list):
        for v in x:
            walk(v)
walk(doc)
if bad:
    print("not unit:", bad[:3])
    sys.exit(1)
PY
# the sheared key: decoders keep what they read (the IQE base pose's scale), the writer composes
sed -e 's/^pq 0 1 0 0 0 0 1$/pq 0 1 0 0 0 0 1 1 2 1/' \
  -e 's/^pq 0 1 0 0.6 0 0 -0.8 1 1 2$/pq 0 1 0 0 0 0.38268343 0.92387953 1 1 1/' \
  "$srcdir/examples/skinned.iqe" >"$work/shear.iqe"
[ "$(grep -c '^pq 0 1 0 0 0 0 1 1 2 1$' "$work/shear.iqe")" -eq 2 ] &&
  grep -q '^pq 0 1 0 0 0 0.38268343 0.92387953 1 1 1$' "$work/shear.iqe" ||
  { echo "examples/skinned.iqe changed" >&2; exit 99; }
run "$work/shear.iqe"
expect_rc 0 "the sheared input is valid"
run convert --accept-loss=MDL-CNV-003,MDL-CNV-013 "$work/shear.iqe" "$work/shear.qmsh"
expect_rc 1 "the shear is dropped: the proof finds the difference"
expect_grep err "shear is not a translation-rotation-scale and is dropped"
[ -f "$work/shear.qmsh" ] || fail "the sheared conversion wrote nothing: its bytes did not validate"
run "$work/shear.qmsh"
expect_rc 0 "the written QMSH validates"
expect_no_grep out 'QMSH-KEY' "a key rotation finding in the written QMSH"

# QMSH to QMSH: the writer copies a decoded QMSH's own keys, and renormalises those off unit length
# as it does every rotation of another format's model. corpus/qmsh/base/v22-f13.qmsh's key at
# 1208 (x y z w, a 30-degree turn) scaled to length 1.0005: QMSH-KEY-004, a warning, so the file
# converts; the written QMSH (same version and v21) must have no key finding, and the proof
# compares the rotations as unit ones (a success). Checked: the old writer copied the key as it was
# (QMSH-KEY-004 in the written file).
"$PYTHON" - "$srcdir/corpus/qmsh/base/v22-f13.qmsh" "$work/long.qmsh" <<'PY' || exit 99
import struct, sys
d = bytearray(open(sys.argv[1], 'rb').read())
q = struct.unpack('<4f', d[1208:1224])
if abs(sum(c * c for c in q) - 1) > 1e-6 or q[3] < 0.9:
    sys.exit('corpus/qmsh/base/v22-f13.qmsh changed')
d[1208:1224] = struct.pack('<4f', *(c * 1.0005 for c in q))
open(sys.argv[2], 'wb').write(d)
PY
run "$work/long.qmsh"
expect_rc 0 "a key rotation of length 1.0005 is a warning"
expect_grep out 'QMSH-KEY-004' "the input's key rotation is off unit length"
for v in 22 21; do
  run convert --target-version=$v "$work/long.qmsh" "$work/long-$v.qmsh"
  expect_rc 0 "QMSH to QMSH v$v: the renormalised rotation is the same rotation"
  run "$work/long-$v.qmsh"
  expect_rc 0 "the written QMSH v$v validates"
  expect_no_grep out 'QMSH-KEY' "a key rotation finding in the written QMSH v$v"
done
finish
