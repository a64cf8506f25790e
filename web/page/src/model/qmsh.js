// qmsh.js - a tolerant QMSH reader for display only (layout: specs/qmsh-layout.md): vertices,
// triangles and their byte ranges; the skeleton comes from the validator's poses.

const HEADER_SIZE = (v) => (v >= 20 ? 88 : v >= 15 ? 84 : v >= 13 ? 72 : 48);
const FLAG = { tangents: 1, animated: 2, physics: 8 };

function vertexSize(flags) {
  if (flags & FLAG.physics) return 12;
  return (flags & FLAG.animated ? 40 : 32) + (flags & FLAG.tangents ? 24 : 0);
}

export function readQmsh(bytes) {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const model = { joints: [], vertices: [], triangles: [], ranges: [], lines: null };
  if (bytes.length < 48) return model;
  const version = bytes[4];
  const flags = bytes[5];
  const nVerts = view.getUint16(6, true);
  const nTris = view.getUint16(8, true);
  const size = vertexSize(flags);
  const vertsAt = HEADER_SIZE(version);
  const trisAt = vertsAt + nVerts * size;
  const skinned = (flags & FLAG.animated) && !(flags & FLAG.physics);
  if (trisAt > bytes.length) return model;
  for (let v = 0; v < nVerts; v++) {
    const at = vertsAt + v * size;
    const f = (k) => view.getFloat32(at + 4 * k, true);
    const vert = { p: [f(0), f(1), f(2)], blend: [] };
    if (skinned) {
      // two 1-based bones (0: the identity "zero bone", left unskinned here)
      const w = f(3);
      const i0 = bytes[at + 16];
      const i1 = bytes[at + 17];
      if (i0 > 0) vert.blend.push([i0 - 1, w]);
      if (i1 > 0) vert.blend.push([i1 - 1, 1 - w]);
    }
    model.vertices.push(vert);
  }
  model.ranges.push({ kind: 'vertex', index: 0, start: vertsAt, end: trisAt, stride: size });
  const trisEnd = Math.min(bytes.length, trisAt + nTris * 6);
  for (let t = 0; trisAt + t * 6 + 6 <= trisEnd; t++) {
    const at = trisAt + t * 6;
    model.triangles.push([view.getUint16(at, true), view.getUint16(at + 2, true), view.getUint16(at + 4, true)]);
  }
  model.ranges.push({ kind: 'triangle', index: 0, start: trisAt, end: trisEnd, stride: 6 });
  return model;
}
