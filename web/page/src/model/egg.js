// egg.js - a tolerant Panda3D Egg reader for display only: vertex pools, polygons (fanned into
// triangles), the joint hierarchy and its vertex memberships, with the source lines of each.

function tokenize(text) {
  const tokens = [];
  const re = /\/\/[^\n]*|\/\*[\s\S]*?\*\/|<[^>]*>|[{}]|"(?:[^"\\]|\\.)*"|[^\s{}<"]+|\n/g;
  let line = 1;
  let m;
  while ((m = re.exec(text)) !== null) {
    const s = m[0];
    if (s === '\n') { line++; continue; }
    if (s.startsWith('//')) continue;
    if (s.startsWith('/*')) { line += s.split('\n').length - 1; continue; }
    tokens.push({ s: s.startsWith('"') ? s.slice(1, -1) : s, line, tag: s.startsWith('<') });
  }
  return tokens;
}

// Entries: { tag, name, line, endLine, values: [tokens], children: [entries] }.
function parse(tokens) {
  let i = 0;
  function body(entry) {
    while (i < tokens.length && tokens[i].s !== '}') {
      const t = tokens[i];
      if (t.tag) entry.children.push(element());
      else { entry.values.push(t); i++; }
    }
    if (i < tokens.length) { entry.endLine = tokens[i].line; i++; }
  }
  function element() {
    const t = tokens[i++];
    const entry = { tag: t.s.slice(1, -1).toLowerCase(), name: '', line: t.line, endLine: t.line,
      values: [], children: [] };
    const names = [];
    while (i < tokens.length && tokens[i].s !== '{' && !tokens[i].tag && tokens[i].s !== '}')
      names.push(tokens[i++].s);
    entry.name = names.join(' ');
    if (i < tokens.length && tokens[i].s === '{') { i++; body(entry); }
    return entry;
  }
  const root = { tag: 'root', children: [], values: [] };
  while (i < tokens.length) {
    if (tokens[i].tag) root.children.push(element());
    else i++;
  }
  return root;
}

// Row-vector 4x4 matrices (row-major arrays): the numbers of an Egg <Matrix4>, and of the
// column-major column-vector matrix three.js reads from the same array.
const identity = () => [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1];

function multiply(a, b) {
  const out = new Array(16).fill(0);
  for (let i = 0; i < 4; i++)
    for (let j = 0; j < 4; j++)
      for (let k = 0; k < 4; k++) out[4 * i + j] += a[4 * i + k] * b[4 * k + j];
  return out;
}

function rotAxis(axis, degrees) {
  const a = degrees * Math.PI / 180;
  const c = Math.cos(a);
  const s = Math.sin(a);
  const m = identity();
  const [i, j] = [[1, 2], [2, 0], [0, 1]][axis]; // the plane the rotation turns
  m[5 * i] = c; m[4 * i + j] = s; m[4 * j + i] = -s; m[5 * j] = c;
  return m;
}

// Panda3D's rotate_mat: degrees about any axis, right-handed.
function rotGeneral(degrees, x, y, z) {
  const len = Math.hypot(x, y, z);
  if (len === 0) return identity();
  [x, y, z] = [x / len, y / len, z / len];
  const a = degrees * Math.PI / 180;
  const c = Math.cos(a);
  const s = Math.sin(a);
  const t = 1 - c;
  return [t * x * x + c, t * x * y + s * z, t * x * z - s * y, 0,
    t * y * x - s * z, t * y * y + c, t * y * z + s * x, 0,
    t * z * x + s * y, t * z * y - s * x, t * z * z + c, 0, 0, 0, 0, 1];
}

// One component of a <Transform> or <DefaultPose>, or null when its values do not fit it (the
// report says so; Panda3D rejects the file).
function component(c) {
  const v = c.values.map((t) => Number(t.s));
  const n = v.length;
  const m = identity();
  switch (c.tag) {
    case 'translate':
      if (n !== 2 && n !== 3) return null;
      m[12] = v[0]; m[13] = v[1]; m[14] = n === 3 ? v[2] : 0;
      return m;
    case 'rotate':
      if (n === 4) return rotGeneral(...v);
      return n === 1 ? rotAxis(2, v[0]) : null;
    case 'rotx': case 'roty': case 'rotz':
      return n === 1 ? rotAxis('xyz'.indexOf(c.tag[3]), v[0]) : null;
    case 'scale':
      if (n < 1 || n > 3) return null;
      m[0] = v[0]; m[5] = n >= 2 ? v[1] : v[0]; m[10] = n === 3 ? v[2] : n === 1 ? v[0] : 1;
      return m;
    case 'matrix4':
      return n === 16 ? v : null;
    case 'matrix3': // a 2-D affine: rows (a b 0) (c d 0) (tx ty 1)
      if (n !== 9) return null;
      m[0] = v[0]; m[1] = v[1]; m[4] = v[3]; m[5] = v[4]; m[12] = v[6]; m[13] = v[7];
      return m;
    default:
      return null;
  }
}

// A <Transform>/<DefaultPose> body: its components in file order, each post-multiplied, so the
// first applies first to a point (Panda3D's EggTransform).
function transformMatrix(entry) {
  let m = identity();
  for (const c of entry.children) {
    const x = component(c);
    if (x) m = multiply(m, x);
  }
  return m;
}

const lastChild = (entry, tag) => entry.children.filter((x) => x.tag === tag).pop();

function markLines(lines, entry, target) {
  for (let l = entry.line; l <= entry.endLine; l++) lines.set(l, target);
}

export function readEgg(text) {
  const model = { joints: [], vertices: [], triangles: [], ranges: null, lines: new Map() };
  const pools = new Map(); // pool name -> Map(vertex number -> model vertex index)
  const memberships = []; // [joint, pool, numbers, weight]
  function walk(entry, parentJoint) {
    for (const c of entry.children) {
      if (c.tag === 'vertexpool') {
        const pool = new Map();
        pools.set(c.name, pool);
        for (const v of c.children.filter((x) => x.tag === 'vertex')) {
          const n = v.values.map((t) => Number(t.s));
          pool.set(Number(v.name), model.vertices.length);
          model.vertices.push({ p: [n[0] || 0, n[1] || 0, n[2] || 0], blend: [] });
          markLines(model.lines, v, { kind: 'vertex', index: model.vertices.length - 1 });
        }
      } else if (c.tag === 'polygon' || c.tag === 'tristrip' || c.tag === 'trifan') {
        const ref = c.children.find((x) => x.tag === 'vertexref');
        if (!ref) continue;
        const poolRef = ref.children.find((x) => x.tag === 'ref');
        const poolName = poolRef ? poolRef.values.map((t) => t.s).join(' ') : '';
        const nums = ref.values.map((t) => Number(t.s));
        const first = model.triangles.length;
        for (let k = 2; k < nums.length; k++)
          model.triangles.push({ pool: poolName, nums: [nums[0], nums[k - 1], nums[k]] });
        markLines(model.lines, c, { kind: 'triangle', index: first });
      } else if (c.tag === 'joint') {
        const index = model.joints.length;
        // <Transform>: the bind (rest) transform; <DefaultPose>: the pose without animation,
        // the bind when absent (the last of each counts, as the validator reads them)
        const xf = lastChild(c, 'transform');
        const pose = lastChild(c, 'defaultpose');
        const joint = { name: c.name, parent: parentJoint, t: [0, 0, 0], r: [0, 0, 0, 1],
          s: [1, 1, 1], eggMatrix: xf ? transformMatrix(xf) : identity(),
          defaultPose: pose ? transformMatrix(pose) : null };
        model.joints.push(joint);
        model.lines.set(c.line, { kind: 'joint', index });
        for (const ref of c.children.filter((x) => x.tag === 'vertexref')) {
          const poolRef = ref.children.find((x) => x.tag === 'ref');
          const membership = ref.children.find((x) => x.tag === 'scalar' && /membership/i.test(x.name));
          memberships.push([index, poolRef ? poolRef.values.map((t) => t.s).join(' ') : '',
            ref.values.map((t) => Number(t.s)), membership ? Number(membership.values[0]?.s) : 1]);
        }
        walk(c, index);
      } else if (c.children.length) {
        walk(c, parentJoint);
      }
    }
  }
  walk(parse(tokenize(text)), -1);
  // Vertex numbers resolve through their pool; an undefined number stays out of range (-1).
  model.triangles = model.triangles.map((t) => {
    const pool = pools.get(t.pool) || new Map();
    return t.nums.map((n) => (pool.has(n) ? pool.get(n) : -1));
  });
  for (const [joint, poolName, nums, weight] of memberships) {
    const pool = pools.get(poolName);
    for (const n of nums) if (pool && pool.has(n)) model.vertices[pool.get(n)].blend.push([joint, weight]);
  }
  return model;
}
