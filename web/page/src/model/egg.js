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
        const joint = { name: c.name, parent: parentJoint, t: [0, 0, 0], r: [0, 0, 0, 1],
          s: [1, 1, 1], eggMatrix: null };
        const xf = c.children.find((x) => x.tag === 'transform');
        const m4 = xf && xf.children.find((x) => x.tag === 'matrix4');
        if (m4 && m4.values.length === 16) joint.eggMatrix = m4.values.map((t) => Number(t.s));
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
