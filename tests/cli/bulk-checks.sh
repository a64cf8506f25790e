#!/bin/sh
# The IQM checks take clean blocks of 1024 triangles, adjacency records and blend entries at once
# and send a block with a defect through the reporting loop: defects planted past the first block
# (and two in one block) are each reported, where they are, in file order, as on a small file.
. "${srcdir:-.}/tests/cli/cli-lib.sh"

GEN=${BENCH_GEN:-$top_builddir/tests/bench/bench_gen}
[ -x "$GEN" ] || { echo "no bench_gen at $GEN" >&2; exit 99; }
"$GEN" mid-iqm "$work/clean.iqm" 1 >/dev/null || exit 99

run "$work/clean.iqm"
expect_rc 0 "the generated file is valid"

# plant FILE: the defects, at offsets read from the header (iqm.txt's layout)
"$PYTHON" - "$work/clean.iqm" "$work/bad.iqm" <<'PY' || exit 99
import struct, sys
d = bytearray(open(sys.argv[1], 'rb').read())
h = struct.unpack_from('<27I', d, 16)
nv, ofs_va, nt, ofs_tri, ofs_adj = h[8], h[9], h[10], h[11], h[12]
assert nt > 5000 and nv > 4000, (nt, nv)
arrays = {}
for i in range(h[7]):
    t, _, fmt, size, ofs = struct.unpack_from('<5I', d, ofs_va + 20 * i)
    arrays[t] = (fmt, size, ofs)
def put32(o, v): struct.pack_into('<I', d, o, v)
put32(ofs_tri + 12 * 2500 + 4, struct.unpack_from('<I', d, ofs_tri + 12 * 2500)[0])  # R23: a repeated corner
put32(ofs_tri + 12 * 2600 + 8, nv + 5)                  # R19: past num_vertexes (same block)
put32(ofs_tri + 12 * 7000, 5)                          # R21: mesh 1 using mesh 0's vertex 5
put32(ofs_adj + 12 * 5000, 7)                           # R25: a neighbour that does not list it back
put32(ofs_adj + 12 * 6000 + 4, nt + 1)                  # R25: past num_triangles
bi, bw = arrays[4][2], arrays[5][2]                     # ubyte x4 blend indexes and weights
d[bi + 4 * 3000 + 1] = 200                              # R37: a used slot past num_joints
d[bw + 4 * 3100: bw + 4 * 3100 + 4] = bytes(4)          # R38: all weights 0
d[bw + 4 * 4000: bw + 4 * 4000 + 4] = bytes([100, 100, 50, 4])  # R38: sum 254
open(sys.argv[2], 'wb').write(d)
PY

run --no-config "$work/bad.iqm"
expect_rc 1 "planted defects"
# each finding: its rule and where it is, in report order (by offset)
"$PYTHON" -c 'import re, sys
for line in open(sys.argv[1]):
    m = re.match(r".*: (?:error|warning)\[([A-Z0-9-]+)\]: .* \[(.*)\]$", line.rstrip("\n"))
    if m: print(m.group(1), m.group(2))' "$work/out" >"$work/got"
cat >"$work/want" <<'W'
IQM-BLD-001 vertexarrays[4].data[3000][1]
IQM-BLD-005 vertexarrays[5].data[3100]
IQM-BLD-003 vertexarrays[5].data[4000]
IQM-TRI-002 triangles[2500]
IQM-TRI-001 triangles[2600].vertex[2]
IQM-MSH-003 triangles[7000].vertex[0]
IQM-ADJ-002 adjacency[4999].triangle[2]
IQM-ADJ-002 adjacency[5000].triangle[0]
IQM-ADJ-001 adjacency[6000].triangle[1]
IQM-ADJ-002 adjacency[6001].triangle[0]
W
if ! diff "$work/want" "$work/got" >"$work/diff"; then
  fail "findings differ from the planted defects:"
  sed 's/^/  /' "$work/diff" >&2
  sed 's/^/  out: /' "$work/out" >&2
fi
[ "$failures" -eq 0 ]
