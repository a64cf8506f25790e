#!/bin/sh
# fix-padding.sh - the bytes between an IQM's sections (the padding before an aligned section)
# hold nothing a loader reads: when fix rewrites a file it writes them as zeros, and the model is
# the same (mdlcheck compare). X42's pad fields have a rule of their own (X42-PAD-001, repaired:
# corpus/x42/fix); QMSH has no padding (qmsh-layout.md). A file whose only oddity is non-zero
# IQM padding has no finding, so fix leaves it as it is (nothing to fix).
. "${srcdir:-.}/tests/cli/cli-lib.sh"

# padding.py garble IN OUT [misalign]: every byte of IN outside the header and its sections set
# to 0xA5, with misalign the comment also moved to an odd offset (IQM-SEC-002, for fix to
# repair); padding.py check F: the bytes outside F's sections, as "count nonzero".
cat >"$work/padding.py" <<'PY'
import struct, sys
def sections(d):
    u = lambda o: struct.unpack_from('<I', d, o)[0]
    assert u(116) == 0, 'no extensions expected'
    fmt = {0: 1, 1: 1, 2: 2, 3: 2, 4: 4, 5: 4, 6: 2, 7: 4, 8: 8}
    r = [(0, 124), (u(32), u(28)), (u(40), 24 * u(36)), (u(52), 20 * u(44)), (u(60), 12 * u(56)),
         (u(72), 48 * u(68)), (u(80), 88 * u(76)), (u(88), 20 * u(84)), (u(100), 2 * u(92) * u(96)),
         (u(112), u(108))]
    if u(64): r.append((u(64), 12 * u(56)))
    if u(104): r.append((u(104), 32 * u(92)))
    for i in range(u(44)):
        h = u(52) + 20 * i
        r.append((u(h + 16), u(48) * u(h + 12) * fmt[u(h + 8)]))
    used = bytearray(len(d))
    for o, n in r:
        if n: used[o:o + n] = b'\1' * n
    return used
cmd, path = sys.argv[1], sys.argv[2]
d = bytearray(open(path, 'rb').read())
if cmd == 'garble':
    used = sections(d)
    n = sum(1 for i in range(len(d)) if not used[i])
    assert n > 0, 'the base has no padding to garble'
    for i in range(len(d)):
        if not used[i]: d[i] = 0xA5
    if len(sys.argv) > 4:                         # the comment one byte later: misaligned
        num, ofs = struct.unpack_from('<II', d, 108)
        c = d[ofs:ofs + num]
        d[ofs:ofs + num] = b'\xa5' + c[:-1]
        d[ofs + num:ofs + num] = c[-1:]
        struct.pack_into('<I', d, 112, ofs + 1)
        struct.pack_into('<I', d, 20, len(d))
    open(sys.argv[3], 'wb').write(d)
    print(n)
else:
    used = sections(d)
    print(sum(1 for i in range(len(d)) if not used[i]), sum(1 for i in range(len(d)) if not used[i] and d[i]))
PY

base=$srcdir/corpus/iqm/base/anim.iqm
n=$("$PYTHON" "$work/padding.py" garble "$base" "$work/g.iqm" misalign) || fail "garbling $base"
echo "+ $n padding bytes of $base set to 0xA5"
set -- $("$PYTHON" "$work/padding.py" check "$work/g.iqm")
[ "$2" -gt 0 ] || fail "the garbled file has no non-zero padding ($*)"

run fix "$work/g.iqm" "$work/f.iqm"
expect_rc 0 "fix of a misaligned IQM with garbage padding"
set -- $("$PYTHON" "$work/padding.py" check "$work/f.iqm")
[ "$1" -gt 0 ] || fail "the repaired file has no padding at all: nothing checked"
[ "$2" -eq 0 ] || fail "fix left $2 of $1 padding bytes non-zero"
run compare "$work/g.iqm" "$work/f.iqm"
expect_rc 0 "the repaired file is not the same model"

# nothing but padding: no finding, nothing to fix, left as it was (no rule flags what no loader
# reads, and fix changes only what a rule flags)
"$PYTHON" "$work/padding.py" garble "$base" "$work/p.iqm" >/dev/null || fail "garbling $base"
cp "$work/p.iqm" "$work/p.orig"
run fix "$work/p.iqm"
expect_rc 0 "fix of an IQM whose only oddity is its padding"
expect_grep out "nothing to fix \(valid\); left as it was"
cmp -s "$work/p.iqm" "$work/p.orig" || fail "a file with nothing to fix was changed"

finish
