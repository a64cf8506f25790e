// x42.js - a tolerant X42 V5 reader for display only (layout: specs/x42.md): bones with their
// base pose, groups as triangles, skinning through the influences' meshToBone matrices, the byte
// range of each element and the elements the validator's X42 paths name.

const IDENT = 0x32345748; // "HW42"
const V5 = 101;
const FIXED_SIZE = 160;
const NONE = 0xffff;
const STEPS = 65530;
const FLAG = { normals: 0x1, tangents: 0x2, texcoords: 0x4, colors: 0x8, uniformScale: 0x100 };
// sections in file order, with their alignment (x42_layout_compute)
const SECTIONS = ['bones', 'animGroups', 'positionValues', 'scaleValues', 'rotationValues',
  'keyStream', 'animations', 'tags', 'influences', 'lods', 'groups', 'vertexPositions', 'blendData',
  'normals', 'tangentBasis', 'texCoords', 'colors', 'indices', 'strings'];
const ALIGN = [8, 8, 2, 1, 1, 8, 8, 8, 8, 8, 8, 2, 1, 1, 1, 2, 4, 4, 1];
const PRIM = { triangles: 4, strip: 5, fan: 6 };
const MAX_TRIANGLES = 1 << 24; // the validator's bound too (x42_model.c)

const range = (u, min, max) => u * ((max - min) / STEPS) + min;

// Section offsets as the engine computes them from the header's counts.
function layout(h, blendLen) {
  const nv = h.numVerts;
  const has = (f) => (h.flags & f) !== 0;
  const size = {
    bones: 12 * h.numBones, animGroups: 6 * h.numAnimGroups, positionValues: 6 * h.numPos,
    scaleValues: (has(FLAG.uniformScale) ? 2 : 6) * h.numScale, rotationValues: 8 * h.numRot,
    keyStream: 8 * h.keyLen, animations: 12 * h.numAnims, tags: 52 * h.numTags,
    influences: 52 * h.numInfl, lods: 6 * h.numLods, groups: 148 * h.numGroups,
    vertexPositions: 6 * nv, blendData: blendLen, normals: has(FLAG.normals) ? 3 * nv : 0,
    tangentBasis: has(FLAG.tangents) ? 7 * nv : 0, texCoords: has(FLAG.texcoords) ? 4 * nv : 0,
    colors: has(FLAG.colors) ? 4 * nv : 0, indices: 2 * h.numIndices, strings: h.nameBlobLen,
  };
  const absent = { normals: FLAG.normals, tangentBasis: FLAG.tangents, texCoords: FLAG.texcoords,
    colors: FLAG.colors };
  const off = {};
  let at = FIXED_SIZE;
  SECTIONS.forEach((s, i) => {
    // an absent optional section takes no padding either
    if (!(absent[s] && !has(absent[s]))) at = Math.ceil(at / ALIGN[i]) * ALIGN[i];
    off[s] = at;
    at += size[s];
  });
  return off;
}

// The value of one track (0 position, 1 scale, 2 rotation) at frame f, between its keys as the
// validator interpolates them (x42_anim.c: track_interp).
function trackValue(x, type, lo, hi, f) {
  const decode = (v) => x.value(type, v);
  const a = decode(lo.value);
  if (!hi || lo.value === hi.value || f <= lo.frame || hi.frame <= lo.frame) return a;
  if (f >= hi.frame) return decode(hi.value);
  const b = decode(hi.value);
  const t = (f - lo.frame) / (hi.frame - lo.frame);
  if (type !== 2) return a.map((v, k) => v + (b[k] - v) * t);
  const sg = a.reduce((s, v, k) => s + v * b[k], 0) < 0 ? -1 : 1;
  const q = a.map((v, k) => v + (sg * b[k] - v) * t);
  const n = Math.hypot(...q);
  return n > 0 ? q.map((v) => v / n) : [0, 0, 0, 1];
}

// Each bone's pose at frame f: the first 6 keys per bone open its tracks, later keys push onto
// the track their type and bone name (x42_pose_at).
function poseAt(x, f) {
  const nb = x.h.numBones;
  const tracks = Array.from({ length: 3 * nb }, () => []);
  x.keys.forEach((k, i) => {
    if (i < 6 * nb) tracks[Math.floor(i / 6) * 3 + Math.floor((i % 6) / 2)].push(k);
    else if (k.type <= 2 && k.bone < nb) tracks[k.bone * 3 + k.type].push(k);
  });
  const out = Array.from({ length: nb }, () => ({ t: [0, 0, 0], r: [0, 0, 0, 1], s: [1, 1, 1] }));
  tracks.forEach((keys, t) => {
    let lo = null;
    let hi = null;
    for (const k of keys) {
      if (k.frame <= f && (!lo || k.frame >= lo.frame)) lo = k;
      else if (k.frame > f && (!hi || k.frame < hi.frame)) hi = k;
    }
    if (!lo) [lo, hi] = [hi, null];
    if (!lo) return;
    out[Math.floor(t / 3)][['t', 's', 'r'][t % 3]] = trackValue(x, t % 3, lo, hi, f);
  });
  return out;
}

export function readX42(bytes) {
  const model = { joints: [], vertices: [], triangles: [], ranges: [], lines: null, influences: [] };
  if (bytes.length < FIXED_SIZE) return model;
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  // "24WH": a big-endian file, every field swapped (the engine swaps it on load)
  const le = view.getUint32(0, true) === IDENT;
  if (!le && view.getUint32(0, false) !== IDENT) throw new Error('no X42 ident');
  const u16 = (at) => (at + 2 <= bytes.length ? view.getUint16(at, le) : 0);
  const s16 = (at) => (at + 2 <= bytes.length ? view.getInt16(at, le) : 0);
  const u32 = (at) => (at + 4 <= bytes.length ? view.getUint32(at, le) : 0);
  const f32 = (at) => (at + 4 <= bytes.length ? view.getFloat32(at, le) : NaN);
  if (u32(4) !== V5) {
    model.error = `X42 version ${u32(4)} has no preview (only V5, version 101, is laid out in the spec)`;
    return model;
  }
  const h = { flags: u16(8), baseFrame: s16(10), numFrames: u16(12), nameBlobLen: u16(14),
    numBones: u16(16), numAnimGroups: u16(18), numPos: u16(20), numRot: u16(22), numScale: u16(24),
    keyLen: u16(26), numAnims: u16(28), numTags: u16(30), numInfl: u16(32), numLods: u16(34),
    numGroups: u16(36), numVerts: u32(40), numIndices: u32(44) };
  const pack = (at, n) => Array.from({ length: n }, (_, a) => [f32(at + 8 * a), f32(at + 8 * a + 4)]);
  const animPos = pack(88, 3);
  const animScale = pack(112, 1)[0];
  const vertPos = pack(120, 3);
  let off = layout(h, 0);
  const groups = [];
  for (let g = 0; g < h.numGroups; g++) {
    const at = off.groups + 148 * g;
    if (at + 148 > bytes.length) break;
    const numInfl = u16(at + 6);
    groups.push({ maxInfl: u16(at + 4), numInfl,
      palette: Array.from({ length: Math.min(numInfl, 60) }, (_, k) => u16(at + 8 + 2 * k)),
      prim: u16(at + 128), firstVert: u32(at + 132), numVerts: u32(at + 136),
      firstIndex: u32(at + 140), numElems: u32(at + 144) });
  }
  const blendLen = groups.reduce((n, g) => n + (g.maxInfl ? (2 * g.maxInfl - 1) * g.numVerts : 0), 0);
  off = layout(h, blendLen);
  const strings = (name) => {
    const at = off.strings + name;
    if (name >= h.nameBlobLen || at >= bytes.length) return '';
    let end = at;
    while (end < bytes.length && end < off.strings + h.nameBlobLen && bytes[end] !== 0) end++;
    return new TextDecoder().decode(bytes.subarray(at, end));
  };

  // the skeleton and its pose at baseFrame (as the validator's joints)
  const x = { h, keys: [], value: null };
  for (let k = 0; k < h.keyLen && off.keyStream + 8 * k + 8 <= bytes.length; k++) {
    const at = off.keyStream + 8 * k;
    x.keys.push({ type: u16(at), bone: u16(at + 2), frame: u16(at + 4), value: u16(at + 6) });
  }
  const uniform = (h.flags & FLAG.uniformScale) !== 0;
  x.value = (type, v) => {
    if (type === 0) {
      if (v >= h.numPos) v = 0;
      return h.numPos ? [0, 1, 2].map((a) => range(u16(off.positionValues + 6 * v + 2 * a), ...animPos[a])) : [0, 0, 0];
    }
    if (type === 1) {
      if (v >= h.numScale) return [1, 1, 1];
      if (uniform) return Array(3).fill(range(u16(off.scaleValues + 2 * v), ...animScale));
      return [0, 1, 2].map((a) => range(u16(off.scaleValues + 6 * v + 2 * a), ...animScale));
    }
    if (v >= h.numRot) return [0, 0, 0, 1];
    return [0, 1, 2, 3].map((a) => s16(off.rotationValues + 8 * v + 2 * a) / 32767);
  };
  const base = poseAt(x, h.baseFrame > 0 ? h.baseFrame : 0);
  for (let b = 0; b < h.numBones && off.bones + 12 * b + 12 <= bytes.length; b++) {
    const at = off.bones + 12 * b;
    const parent = u16(at + 4);
    model.joints.push({ name: strings(u16(at)), parent: parent === NONE ? -1 : parent, ...base[b] });
    model.ranges.push({ kind: 'joint', index: b, start: at, end: at + 12 });
  }
  // a base pose is bone b's first six keys
  model.ranges.push({ kind: 'joint', index: 0, start: off.keyStream,
    end: off.keyStream + 48 * Math.min(h.numBones, Math.floor(h.keyLen / 6)), stride: 48 });
  for (let i = 0; i < h.numInfl && off.influences + 52 * i + 52 <= bytes.length; i++) {
    const at = off.influences + 52 * i;
    const m = Array.from({ length: 12 }, (_, k) => f32(at + 4 + 4 * k));
    // affine axis0, axis1, axis2, origin: the columns of a column-vector matrix
    model.influences.push({ joint: u16(at), matrix: [...m.slice(0, 3), 0, ...m.slice(3, 6), 0,
      ...m.slice(6, 9), 0, ...m.slice(9, 12), 1] });
  }

  for (let v = 0; v < h.numVerts && off.vertexPositions + 6 * v + 6 <= bytes.length; v++) {
    const at = off.vertexPositions + 6 * v;
    model.vertices.push({ p: [0, 1, 2].map((a) => range(u16(at + 2 * a), ...vertPos[a])), blend: [] });
  }
  for (const [s, stride, flag] of [['vertexPositions', 6, 0], ['normals', 3, FLAG.normals],
    ['tangentBasis', 7, FLAG.tangents], ['texCoords', 4, FLAG.texcoords], ['colors', 4, FLAG.colors]]) {
    if (!flag || (h.flags & flag))
      model.ranges.push({ kind: 'vertex', index: 0, start: off[s], end: off[s] + stride * h.numVerts, stride });
  }

  // blend data: per vertex of a skinned group (palette slot u8, weight U8N) x (m - 1), then the
  // last slot, whose weight is what the others leave of 1
  let pos = 0;
  const blendAt = [];
  groups.forEach((g) => {
    const m = g.maxInfl;
    if (!m) return;
    const stride = 2 * m - 1;
    const start = off.blendData + pos;
    blendAt.push({ pos, end: pos + stride * g.numVerts, stride, firstVert: g.firstVert });
    model.ranges.push({ kind: 'vertex', index: g.firstVert, start, end: start + stride * g.numVerts, stride });
    for (let v = 0; v < g.numVerts; v++, pos += stride) {
      if (off.blendData + pos + stride > bytes.length) { // counts past the file's bytes
        pos += stride * (g.numVerts - v);
        break;
      }
      const vert = model.vertices[g.firstVert + v];
      if (!vert) continue;
      let sum = 0;
      for (let k = 0; k < m; k++) {
        const slot = bytes[off.blendData + pos + 2 * k];
        const w = k + 1 < m ? bytes[off.blendData + pos + 2 * k + 1] / 255 : Math.max(0, 1 - sum);
        sum += w;
        const infl = slot < g.palette.length ? g.palette[slot] : -1;
        const joint = infl >= 0 && infl < model.influences.length ? model.influences[infl].joint : -1;
        if (w > 0) vert.blend.push([joint, w, infl]);
      }
    }
  });

  // triangles of the groups whose elements exist, as the validator counts them (and that the
  // file's bytes hold: a count may say anything); an index past its group stays out of range (-1)
  const indexTriangle = new Map(); // index position -> first triangle using it
  groups.forEach((g) => {
    const indexed = g.firstIndex !== 0xffffffff;
    const exists = indexed
      ? g.firstIndex + g.numElems <= h.numIndices && off.indices + 2 * (g.firstIndex + g.numElems) <= bytes.length
      : g.numElems <= g.numVerts && g.firstVert + g.numVerts <= model.vertices.length;
    if (!Object.values(PRIM).includes(g.prim) || !exists || g.numElems < 3 || model.triangles.length >= MAX_TRIANGLES) return;
    const first = model.triangles.length;
    for (let e = 0; e + 2 < g.numElems; e += g.prim === PRIM.triangles ? 3 : 1) {
      const c = [0, 1, 2].map((k) => {
        const at = g.prim === PRIM.fan && k === 0 ? 0 : e + k;
        const idx = indexed ? u16(off.indices + 2 * (g.firstIndex + at)) : at;
        return idx < g.numVerts && g.firstVert + idx < h.numVerts ? g.firstVert + idx : -1;
      });
      if (g.prim === PRIM.strip && (e & 1)) [c[0], c[1]] = [c[1], c[0]];
      model.triangles.push(c);
    }
    if (!indexed) return;
    for (let e = 0; e < g.numElems; e++) {
      const t = g.prim === PRIM.triangles ? Math.floor(e / 3) : Math.max(0, e - 2);
      const k = g.firstIndex + e;
      if (!indexTriangle.has(k)) indexTriangle.set(k, first + Math.min(t, model.triangles.length - 1 - first));
    }
  });
  model.ranges.push({ kind: 'triangle', start: off.indices, end: off.indices + 2 * h.numIndices, stride: 2,
    at: (k) => indexTriangle.get(k) });

  // the validator's X42 paths (x42_sections.c) that name an element the view draws
  model.locatePath = (path) => {
    let m;
    if ((m = /^keyStream\[(\d+)\]/.exec(path))) {
      const k = Number(m[1]);
      const bone = k < 6 * h.numBones ? Math.floor(k / 6) : x.keys[k] && x.keys[k].bone;
      return bone !== undefined && bone < h.numBones ? { kind: 'joint', index: bone } : null;
    }
    if ((m = /^influences\[(\d+)\]/.exec(path))) {
      const infl = model.influences[Number(m[1])];
      return infl && infl.joint !== NONE ? { kind: 'joint', index: infl.joint } : null;
    }
    if ((m = /^groups\[(\d+)\]\.blend\[(\d+)\]/.exec(path)) && groups[Number(m[1])])
      return { kind: 'vertex', index: groups[Number(m[1])].firstVert + Number(m[2]) };
    if ((m = /^blendData\[(\d+)\]/.exec(path))) {
      const p = Number(m[1]);
      const b = blendAt.find((r) => p >= r.pos && p < r.end);
      return b ? { kind: 'vertex', index: b.firstVert + Math.floor((p - b.pos) / b.stride) } : { kind: 'file' };
    }
    if ((m = /^(?:vertexPositions|normals|tangentBasis|texCoords|colors)\[(\d+)\]/.exec(path)))
      return { kind: 'vertex', index: Number(m[1]) };
    if ((m = /^indices\[(\d+)\]/.exec(path))) {
      const t = indexTriangle.get(Number(m[1]));
      return t === undefined ? { kind: 'file' } : { kind: 'triangle', index: t };
    }
    return null;
  };
  return model;
}
