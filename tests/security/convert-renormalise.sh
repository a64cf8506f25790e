#!/bin/sh
# Issue 26 item 12 (its third case, QMSH key rotations renormalised): an IQE frame with a
# quaternion of norm 3 (only a warning there, IQE-POS-001) must convert to a QMSH that validates
# clean, with unit rotations. NOTE: this does not isolate the QMSH writer's renormalisation
# (qmsh_convert.c): with it removed the test still passes, because the IQE decoder already
# normalises pq rotations; it guards the pipeline end to end only. An input reaching the
# writer's own renormalisation (a key matrix that is not quite a rotation) is still to be found.
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
finish
