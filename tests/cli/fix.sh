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

# --- bounds recomputed as the compiler computes them: posed frames, each flagged record alone ----
# frame 3's box inverted (IQM-BND-001) and frame 2's radius below its xyradius (IQM-BND-002): those
# two come back as the vertices skinned with the frame's joints (computed here on their own, from
# the file's joints, poses, frames and arrays), every other record as it was (anim.iqm's are
# made-up boxes that are not wrong: kept)
cat >"$work/skin.py" <<'PY'
import struct, sys, math
def iqm_bounds(path):
    d = open(path, 'rb').read()
    u = lambda o: struct.unpack_from('<I', d, o)[0]
    nj, oj, np_, op, nf, nfc, of = u(68), u(72), u(76), u(80), u(92), u(96), u(100)
    nva, nv, ova = u(44), u(48), u(52)
    fmt = {1: ('B', 1), 5: ('I', 4), 7: ('f', 4)}
    arr = {}
    for i in range(nva):
        t, fl, f, sz, o = struct.unpack_from('<5I', d, ova + 20 * i)
        c, b = fmt[f]
        arr[t] = [struct.unpack_from('<%d%s' % (sz, c), d, o + v * sz * b) for v in range(nv)]
    def mat(t, q, s):
        n = math.sqrt(sum(x * x for x in q)); x, y, z, w = (c / n for c in q)
        r = [[1 - 2 * (y * y + z * z), 2 * (x * y - z * w), 2 * (x * z + y * w)],
             [2 * (x * y + z * w), 1 - 2 * (x * x + z * z), 2 * (y * z - x * w)],
             [2 * (x * z - y * w), 2 * (y * z + x * w), 1 - 2 * (x * x + y * y)]]
        return [[r[i][0] * s[0], r[i][1] * s[1], r[i][2] * s[2], t[i]] for i in range(3)] + [[0, 0, 0, 1]]
    mul = lambda a, b: [[sum(a[i][k] * b[k][j] for k in range(4)) for j in range(4)] for i in range(4)]
    def inv(m):  # affine
        a = [r[:3] for r in m[:3]]
        det = (a[0][0] * (a[1][1] * a[2][2] - a[1][2] * a[2][1]) - a[0][1] * (a[1][0] * a[2][2] - a[1][2] * a[2][0])
               + a[0][2] * (a[1][0] * a[2][1] - a[1][1] * a[2][0]))
        c = [[(a[(j + 1) % 3][(i + 1) % 3] * a[(j + 2) % 3][(i + 2) % 3] - a[(j + 1) % 3][(i + 2) % 3] * a[(j + 2) % 3][(i + 1) % 3]) / det
              for j in range(3)] for i in range(3)]
        t = [-sum(c[i][k] * m[k][3] for k in range(3)) for i in range(3)]
        return [c[i] + [t[i]] for i in range(3)] + [[0, 0, 0, 1]]
    joints = [struct.unpack_from('<Ii3f4f3f', d, oj + 48 * j) for j in range(nj)]
    bind = []
    for j, jt in enumerate(joints):
        m = mat(jt[2:5], jt[5:9], jt[9:12])
        bind.append(mul(bind[jt[1]], m) if jt[1] >= 0 else m)
    poses = [struct.unpack_from('<iI10f10f', d, op + 88 * p) for p in range(np_)]
    out = []
    for f in range(nf):
        k = of + 2 * nfc * f
        world = []
        for p, po in enumerate(poses):
            ch = []
            for c in range(10):
                v = po[2 + c]
                if po[1] >> c & 1:
                    v += struct.unpack_from('<H', d, k)[0] * po[12 + c]; k += 2
                ch.append(v)
            m = mat(ch[0:3], ch[3:7], ch[7:10])
            world.append(mul(world[po[0]], m) if po[0] >= 0 else m)
        skin = [mul(world[j], inv(bind[j])) for j in range(nj)]
        pts = []
        for v in range(nv):
            p = arr[0][v]; w = arr[5][v]; ix = arr[4][v]; sw = sum(w)
            q = [0, 0, 0]
            for wi, ji in zip(w, ix):
                if wi:
                    for c in range(3):
                        q[c] += wi / sw * sum(skin[ji][c][k2] * p[k2] for k2 in range(3)) + wi / sw * skin[ji][c][3]
            pts.append(q)
        lo = [min(p[c] for p in pts) for c in range(3)]; hi = [max(p[c] for p in pts) for c in range(3)]
        out.append(lo + hi + [max(math.hypot(p[0], p[1]) for p in pts), max(math.sqrt(sum(c * c for c in p)) for p in pts)])
    return out
PY
"$PYTHON" - "$base" "$work/bnd.iqm" <<'PY'
import struct, sys
d = bytearray(open(sys.argv[1], 'rb').read())
ofs = struct.unpack_from('<I', d, 104)[0]
struct.pack_into('<f', d, ofs + 3 * 32, 5.0)        # frame 3 bbmins[0]
struct.pack_into('<f', d, ofs + 2 * 32 + 28, 0.5)   # frame 2 radius
open(sys.argv[2], 'wb').write(d)
PY
run fix "$work/bnd.iqm" "$work/bnd-fixed.iqm"
expect_rc 0 "inverted and radius-less bounds repaired"
expect_grep err "MDL-FIX-003.*IQM-BND-001"
expect_grep err "MDL-FIX-003.*IQM-BND-002"
"$PYTHON" - "$work/bnd.iqm" "$work/bnd-fixed.iqm" "$work" <<'PY' || fail "the recomputed bounds are not the skinned vertices' (or an unflagged record changed)"
import struct, sys
sys.path.insert(0, sys.argv[3])
import skin
def bounds(p):
    d = open(p, 'rb').read()
    ofs, n = struct.unpack_from('<I', d, 104)[0], struct.unpack_from('<I', d, 92)[0]
    return [list(struct.unpack_from('<8f', d, ofs + 32 * i)) for i in range(n)]
a, b, posed = bounds(sys.argv[1]), bounds(sys.argv[2]), skin.iqm_bounds(sys.argv[1])
want = [list(r) for r in a]
want[3][0:6] = posed[3][0:6]
want[2][6:8] = posed[2][6:8]
assert len(b) == 5, len(b)
for i in range(5):
    for k in range(8):
        assert abs(want[i][k] - b[i][k]) <= 1e-5 * max(1, abs(want[i][k])), (i, k, want[i], b[i])
PY

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
