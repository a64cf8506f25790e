// locate.js - maps a diagnostic to the model element it concerns: first by its structural path
// (joints[3].parent, triangles[5][1], vertices[2].weight, frames[0].poses[4].rotate, "joint 1"),
// then by its byte offset (binary formats) or line (text formats) inside an element's extent.

const PATH_RULES = [
  [/(?:^|\.)(?:joints|bones|poses)\[(\d+)\]/, 'joint'],
  [/^joint (\d+)/, 'joint'],
  [/(?:^|\.)(?:triangles|adjacency)\[(\d+)\]/, 'triangle'],
  [/(?:^|\.)(?:vertices|blendData)\[(\d+)\]/, 'vertex'],
];

function byPath(path) {
  for (const [re, kind] of PATH_RULES) {
    const m = re.exec(path || '');
    if (m) return { kind, index: Number(m[1]), by: 'path' };
  }
  return null;
}

function byOffset(model, offset) {
  for (const r of model.ranges || []) {
    if (offset < r.start || offset >= r.end) continue;
    const k = r.stride ? Math.floor((offset - r.start) / r.stride) : 0;
    // a range's elements are r.index + k, or what its own map says (X42 indices -> triangles)
    const index = r.at ? r.at(k) : r.index + k;
    if (index === undefined) continue;
    return { kind: r.kind, index, by: 'offset' };
  }
  return null;
}

function byLine(model, line) {
  const hit = model.lines && model.lines.get(line);
  return hit ? { kind: hit.kind, index: hit.index, by: 'line' } : null;
}

const COUNT = { joint: 'joints', triangle: 'triangles', vertex: 'vertices' };

// The element { kind, index, by } or { kind: 'file' } when the diagnostic names none the view
// can show (a header field, a texture, a whole-file rule). An index past the model's table is
// kept: the view says it is not drawable rather than pointing somewhere else.
export function locate(diag, model) {
  // a format's own paths first (X42's blendData[n] is a byte position, not a vertex)
  let hit = model && model.locatePath && diag.path ? model.locatePath(diag.path) : null;
  if (hit && hit.kind === 'file') return hit;
  if (hit) hit.by = 'path';
  else hit = byPath(diag.path);
  if (!hit && model && diag.offset !== undefined) hit = byOffset(model, diag.offset);
  if (!hit && model && diag.line !== undefined) hit = byLine(model, diag.line);
  if (!hit) return { kind: 'file' };
  hit.drawable = !!model && hit.index < (model[COUNT[hit.kind]] || []).length;
  return hit;
}
