// iqe.js - a tolerant IQE reader for display only: mesh, skeleton, animation frames, and the
// source line of each element, so a diagnostic's line can name its element.

function words(line) {
  const out = [];
  const re = /"((?:[^"\\]|\\.)*)"|(\S+)/g;
  let m;
  while ((m = re.exec(line)) !== null) out.push(m[1] !== undefined ? m[1] : m[2]);
  return out;
}

// IQE's `pq` (and the joint's base pose): translate, rotate xyzw, optional scale.
function pq(w) {
  const n = w.slice(1).map(Number);
  const r = n.length >= 7 ? [n[3], n[4], n[5], n[6]] : [0, 0, 0, 1];
  return { t: [n[0] || 0, n[1] || 0, n[2] || 0], r, s: n.length >= 10 ? [n[7], n[8], n[9]] : [1, 1, 1] };
}

export function readIqe(text) {
  const model = { joints: [], vertices: [], triangles: [], ranges: null, lines: new Map(),
    frames: [] };
  let meshStart = 0;
  let frame = null;
  let current = null; // the element the following attribute lines belong to
  text.split(/\r\n|\r|\n/).forEach((raw, i) => {
    const line = i + 1;
    const w = words(raw.replace(/#.*$/, ''));
    if (!w.length) return;
    switch (w[0]) {
      case 'joint':
        model.joints.push({ name: w[1] || '', parent: Number(w[2] ?? -1), t: [0, 0, 0],
          r: [0, 0, 0, 1], s: [1, 1, 1] });
        current = { kind: 'joint', index: model.joints.length - 1 };
        model.lines.set(line, current);
        break;
      case 'pq':
        if (frame) frame.push(pq(w));
        else if (current && current.kind === 'joint') Object.assign(model.joints[current.index], pq(w));
        if (current) model.lines.set(line, current);
        break;
      case 'mesh':
        meshStart = model.vertices.length;
        current = null;
        break;
      case 'vp':
        model.vertices.push({ p: [Number(w[1]) || 0, Number(w[2]) || 0, Number(w[3]) || 0], blend: [] });
        current = { kind: 'vertex', index: model.vertices.length - 1 };
        model.lines.set(line, current);
        break;
      case 'vb':
        if (current && current.kind === 'vertex') {
          const v = model.vertices[current.index];
          for (let k = 1; k + 1 < w.length; k += 2) v.blend.push([Number(w[k]), Number(w[k + 1])]);
        }
        if (current) model.lines.set(line, current);
        break;
      case 'fm':
      case 'fa': {
        const base = w[0] === 'fm' ? meshStart : 0;
        const idx = w.slice(1).map((x) => {
          const k = Number(x);
          return k < 0 && w[0] === 'fm' ? model.vertices.length + k : base + k;
        });
        for (let k = 2; k < idx.length; k++) {
          model.triangles.push([idx[0], idx[k - 1], idx[k]]);
          if (k === 2) model.lines.set(line, { kind: 'triangle', index: model.triangles.length - 1 });
        }
        current = null;
        break;
      }
      case 'animation':
        current = null;
        break;
      case 'frame':
        frame = [];
        model.frames.push(frame);
        current = null;
        break;
      default:
        if (current && /^v[a-z0-9]*$/.test(w[0])) model.lines.set(line, current);
    }
  });
  return model;
}
