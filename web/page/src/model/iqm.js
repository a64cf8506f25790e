// iqm.js - a tolerant IQM reader for display only (the verdict comes from the validator): mesh,
// skeleton and the byte range of each element, so a diagnostic's offset can name its element.

const VA_TYPES = { position: 0, blendindexes: 4, blendweights: 5 };
const FORMAT_SIZE = [1, 1, 2, 2, 4, 4, 2, 4, 8];

function readComponent(view, format, at) {
  switch (format) {
    case 0: return view.getInt8(at);
    case 1: return view.getUint8(at);
    case 2: return view.getInt16(at, true);
    case 3: return view.getUint16(at, true);
    case 4: return view.getInt32(at, true);
    case 5: return view.getUint32(at, true);
    case 7: return view.getFloat32(at, true);
    case 8: return view.getFloat64(at, true);
    default: return NaN; // half floats are rare in IQM; shown as missing
  }
}

function cString(bytes, at) {
  if (at >= bytes.length) return '';
  let end = at;
  while (end < bytes.length && bytes[end] !== 0) end++;
  return new TextDecoder().decode(bytes.subarray(at, end));
}

export function readIqm(bytes) {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const u32 = (at) => (at + 4 <= bytes.length ? view.getUint32(at, true) : 0);
  const fits = (ofs, count, size) => ofs + count * size <= bytes.length;
  const h = {};
  ['version', 'filesize', 'flags', 'num_text', 'ofs_text', 'num_meshes', 'ofs_meshes',
    'num_vertexarrays', 'num_vertexes', 'ofs_vertexarrays', 'num_triangles', 'ofs_triangles',
    'ofs_adjacency', 'num_joints', 'ofs_joints', 'num_poses', 'ofs_poses', 'num_anims',
    'ofs_anims'].forEach((k, i) => { h[k] = u32(16 + 4 * i); });
  const model = { joints: [], vertices: [], triangles: [], ranges: [], lines: null };
  const text = (ofs) => (ofs < h.num_text ? cString(bytes, h.ofs_text + ofs) : '');

  if (fits(h.ofs_joints, h.num_joints, 48)) {
    for (let j = 0; j < h.num_joints; j++) {
      const at = h.ofs_joints + 48 * j;
      const f = (k) => view.getFloat32(at + 8 + 4 * k, true);
      model.joints.push({ name: text(u32(at)), parent: view.getInt32(at + 4, true),
        t: [f(0), f(1), f(2)], r: [f(3), f(4), f(5), f(6)], s: [f(7), f(8), f(9)] });
      model.ranges.push({ kind: 'joint', index: j, start: at, end: at + 48 });
    }
  }
  if (fits(h.ofs_poses, h.num_poses, 88)) {
    for (let p = 0; p < h.num_poses; p++) {
      const at = h.ofs_poses + 88 * p;
      model.ranges.push({ kind: 'joint', index: p, start: at, end: at + 88 });
    }
  }
  const n = h.num_vertexes;
  const arrays = {};
  if (fits(h.ofs_vertexarrays, h.num_vertexarrays, 20)) {
    for (let a = 0; a < h.num_vertexarrays; a++) {
      const at = h.ofs_vertexarrays + 20 * a;
      const va = { type: u32(at), format: u32(at + 8), size: u32(at + 12), offset: u32(at + 16) };
      const stride = (FORMAT_SIZE[va.format] || 0) * va.size;
      if (!stride || va.size > 16 || !fits(va.offset, n, stride)) continue;
      va.stride = stride;
      for (const [name, type] of Object.entries(VA_TYPES))
        if (va.type === type && !arrays[name]) arrays[name] = va;
      model.ranges.push({ kind: 'vertex', index: 0, start: va.offset, end: va.offset + n * stride,
        stride });
    }
  }
  const get = (va, v, c) => readComponent(view, va.format, va.offset + v * va.stride +
    c * FORMAT_SIZE[va.format]);
  for (let v = 0; v < n && arrays.position; v++) {
    const vert = { p: [0, 1, 2].map((c) => (c < arrays.position.size ? get(arrays.position, v, c) : 0)),
      blend: [] };
    if (arrays.blendindexes && arrays.blendweights) {
      const scale = arrays.blendweights.format === 1 ? 255 : 1;
      for (let c = 0; c < Math.min(arrays.blendindexes.size, arrays.blendweights.size); c++) {
        const w = get(arrays.blendweights, v, c) / scale;
        if (w !== 0) vert.blend.push([get(arrays.blendindexes, v, c), w]);
      }
    }
    model.vertices.push(vert);
  }
  if (fits(h.ofs_triangles, h.num_triangles, 12)) {
    for (let t = 0; t < h.num_triangles; t++) {
      const at = h.ofs_triangles + 12 * t;
      model.triangles.push([u32(at), u32(at + 4), u32(at + 8)]);
      model.ranges.push({ kind: 'triangle', index: t, start: at, end: at + 12 });
    }
  }
  if (fits(h.ofs_adjacency, h.num_triangles, 12) && h.ofs_adjacency) {
    model.ranges.push({ kind: 'triangle', index: 0, start: h.ofs_adjacency,
      end: h.ofs_adjacency + 12 * h.num_triangles, stride: 12 });
  }
  return model;
}
