// model.js - the library's decoded model (mdlcheck's model(): web/API.md) in the shape the view
// draws, and the element a diagnostic points at as the library's locator found it. Nothing
// here reads a model's bytes or knows a format: the library did both.

// { joints, vertices: [{ p, blend: [[joint, weight]] }], triangles: [[a, b, c]], upAxis,
// diagnostics, source } from model()'s object; null when there is none.
export function displayModel(m) {
  if (!m) return null;
  const vertices = [];
  const k = m.blend_size;
  for (let v = 0; v < m.num_vertexes; v++) {
    const blend = [];
    for (let c = 0; c < k; c++) {
      const w = m.blend_weights[v * k + c];
      if (w !== 0) blend.push([m.blend_indexes[v * k + c], w]);
    }
    vertices.push({ p: m.positions.slice(3 * v, 3 * v + 3), blend });
  }
  const triangles = [];
  for (let t = 0; t < m.num_triangles; t++) triangles.push(m.triangles.slice(3 * t, 3 * t + 3));
  return { joints: m.joints, vertices, triangles, upAxis: m.up_axis, decoded: m.decoded,
    diagnostics: m.diagnostics, source: m.source };
}

const COUNT = { joint: 'joints', triangle: 'triangles', vertex: 'vertices' };
const same = (a, b) => a === b || (a === undefined && b === undefined);

// The element { kind, index, drawable } diagnostic d of the report points at, found by the
// library for the same diagnostic of its own decode (same rule, place and path); { kind: 'file' }
// when it points at none the view shows (a header field, a texture, a whole-file rule).
export function locate(d, model) {
  const hit = model && model.diagnostics.find((x) => x.id === d.id && same(x.offset, d.offset) &&
    same(x.line, d.line) && same(x.column, d.column) && x.path === (d.path ?? ''));
  const e = hit && hit.element;
  if (!e || !COUNT[e.kind]) return { kind: 'file' };
  if (e.dropped) return { kind: e.kind, dropped: true, drawable: false };
  return { kind: e.kind, index: e.index, drawable: e.index < model[COUNT[e.kind]].length };
}
