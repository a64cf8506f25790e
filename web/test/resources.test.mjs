// resources.test.mjs - validate()'s resources option (web/API.md) against the CLI's --resources:
// for every corpus case that checks referenced files, the tree the CLI run lays out (case_run
// --dump-tree) is given to the API, and the entry must be the CLI's `--resources -f json` entry,
// byte for byte as JSON (statuses, resolved paths, image sizes, MDL-RES-* diagnostics); then
// the frames, limits and refusals of the option. Run by tests/web/api.sh (node --test).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import vm from 'node:vm';

const top = process.env.MDLCHECK_SRCDIR;
const dist = process.env.MDLCHECK_WEB_DIST;
const mdlcheck = process.env.MDLCHECK;
const caseRun = process.env.MDLCHECK_CASE_RUN;

const esm = await import(pathToFileURL(join(dist, 'mdlcheck.mjs')).href);
const single = (() => {
  const context = vm.createContext({ console, TextEncoder, TextDecoder, DecompressionStream, WebAssembly, atob, URL });
  vm.runInContext(readFileSync(join(dist, 'mdlcheck.single.js'), 'utf8'), context);
  return context.mdlcheck;
})();

/* The CLI's JSON report, run in cwd (exit 1 for an invalid file is expected). */
function cli(args, cwd) {
  try {
    return JSON.parse(execFileSync(mdlcheck, ['-f', 'json', ...args], { cwd, maxBuffer: 1 << 26 }));
  } catch (e) {
    if (e.status !== 1) throw e;
    return JSON.parse(e.stdout);
  }
}

/* The case's tree as case_run lays it out for the CLI: { name, bytes, files: {path: bytes},
 * resources (DIRS or null), options, other }. */
function caseTree(file) {
  const tree = { files: {}, resources: null, options: {}, other: [] };
  for (const line of execFileSync(caseRun, ['--dump-tree', file], { encoding: 'utf8' }).split('\n')) {
    const [kind, a, b] = line.split('\t');
    if (kind === 'input') Object.assign(tree, { name: a, bytes: Buffer.from(b, 'hex') });
    if (kind === 'file') tree.files[a] = Buffer.from(b, 'hex');
    if (kind === 'resources') tree.resources = a ?? '';
    if (kind === 'option') tree.options[a] = b;
    if (kind === 'other') tree.other.push(a);
  }
  return tree;
}

const CASES = (() => {
  const out = [];
  const walk = (dir) => {
    for (const e of readdirSync(dir, { withFileTypes: true })) {
      const p = join(dir, e.name);
      if (e.isDirectory()) walk(p);
      else if (e.name.endsWith('.yaml') && /^ {2}resources:/m.test(readFileSync(p, 'utf8'))) out.push(p);
    }
  };
  walk(join(top, 'corpus'));
  return out.sort();
})();

/* Lay the tree out in a fresh folder; run the CLI there on NAME; hand the API the same files
 * relative to that folder (the model's own: NAME has no folder). */
async function sameAsCli(api, tree, where) {
  const dir = mkdtempSync(join(tmpdir(), 'mdlcheck-res-'));
  try {
    writeFileSync(join(dir, tree.name), tree.bytes);
    for (const [p, bytes] of Object.entries(tree.files)) {
      mkdirSync(dirname(join(dir, p)), { recursive: true });
      writeFileSync(join(dir, p), bytes);
    }
    const dirs = tree.resources ? tree.resources.split(':') : [];
    const args = [tree.resources ? `--resources=${tree.resources}` : '--resources'];
    const opts = { name: tree.name, resources: { files: tree.files, dirs } };
    if (tree.options['assume-format']) { args.push(`--assume-format=${tree.options['assume-format']}`); opts.format = tree.options['assume-format']; }
    if (tree.options.profile) { args.push(`--profile=${tree.options.profile}`); opts.profile = tree.options.profile; }
    if (tree.options.strict) { args.push('--strict'); opts.strict = true; }
    const report = cli([...args, tree.name], dir);
    const got = JSON.parse(JSON.stringify(await api.validate(tree.bytes, opts)));
    assert.deepEqual(got, report.files[0], where);
    assert.ok(Array.isArray(got.resources), `${where}: the entry lists the references`);
    /* an external egg the CLI validates as an input of its own: the caller validates it by
     * its resolved_path, which is a key of the files given */
    for (const entry of report.files.slice(1)) {
      const key = entry.path.replace(/^(\.\/)+/, '');
      assert.ok(tree.files[key], `${where}: ${entry.path} is one of the files given`);
      const ext = await api.validate(tree.files[key], { ...opts, name: entry.path });
      assert.deepEqual(JSON.parse(JSON.stringify(ext)), entry, `${where}: external ${entry.path}`);
    }
    return report;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

test('every corpus case with --resources: the API entry is the CLI\'s, the tree given as files', async () => {
  let compared = 0, externals = 0;
  const statuses = new Set(), rules = new Set();
  for (const file of CASES) {
    const tree = caseTree(file);
    if (tree.other.length || !tree.name || tree.resources === null) continue;
    if (tree.resources.split(':').some((d) => d.startsWith('/'))) continue;
    const report = await sameAsCli(esm, tree, file);
    compared++;
    externals += report.files.length - 1;
    for (const r of report.files[0].resources) statuses.add(r.status);
    for (const m of report.files[0].messages) rules.add(m.id);
  }
  /* the corpus covers what the option must carry through: every status but a link that leads
   * out (MEMFS holds no links), and the MDL-RES rules the tree decides */
  assert.ok(compared >= 25, `${compared} cases compared`);
  assert.ok(externals >= 1, 'an external egg validated by its resolved path');
  assert.deepEqual([...statuses].sort(), ['case-mismatch', 'found', 'missing', 'outside', 'unreadable']);
  for (const id of ['MDL-RES-001', 'MDL-RES-002', 'MDL-RES-003', 'MDL-RES-004', 'MDL-RES-005',
    'MDL-RES-006', 'MDL-RES-007', 'MDL-RES-008', 'MDL-RES-009'])
    assert.ok(rules.has(id), `${id} seen`);
});

test('the single-file script takes the option too', async () => {
  const tree = caseTree(join(top, 'corpus', 'core', 'resources', 'MDL-RES-003-t01-fail.yaml'));
  await sameAsCli(single, tree, 'single: MDL-RES-003-t01-fail');
});

const PNG4 = Buffer.from('89504e470d0a1a0a0000000d494844520000000400000004080600000000000000', 'hex');
const EGG = (refs) => `<CoordinateSystem> { Z-up }\n${refs.map((r, i) => `<Texture> t${i} { "${r}" }\n`).join('')}`;

test('name with folders, files in the same frame, a search folder, paths climbing with ..', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'mdlcheck-res-'));
  try {
    /* the CLI in dir: models/m.egg names a texture beside it, one in the search folder
     * "shared", one found through "../shared" (inside a root), one that leaves every root */
    const files = { 'models/maps/a.png': PNG4, 'shared/b.png': PNG4, 'shared/c.png': PNG4, 'models/Tex/D.png': PNG4 };
    const egg = Buffer.from(EGG(['maps/a.png', 'b.png', '../shared/c.png', '../../x.png', 'tex/d.png', 'gone.png']));
    writeFileSync(join(dir, 'x.png'), PNG4);
    mkdirSync(join(dir, 'models'));
    writeFileSync(join(dir, 'models', 'm.egg'), egg);
    for (const [p, b] of Object.entries(files)) {
      mkdirSync(dirname(join(dir, p)), { recursive: true });
      writeFileSync(join(dir, p), b);
    }
    const want = cli(['--resources=shared', 'models/m.egg'], dir).files[0];
    const got = await esm.validate(egg, { name: 'models/m.egg', resources: { files: new Map(Object.entries(files)), dirs: 'shared' } });
    assert.deepEqual(got, want);
    assert.deepEqual(got.resources.map((r) => r.status), ['found', 'found', 'found', 'outside', 'case-mismatch', 'missing']);
    /* a model above the working folder: the files climb with it */
    mkdirSync(join(dir, 'up', 'work'), { recursive: true });
    mkdirSync(join(dir, 'up', 'maps'));
    writeFileSync(join(dir, 'up', 'm.egg'), egg);
    writeFileSync(join(dir, 'up', 'maps', 'a.png'), PNG4);
    const upWant = cli(['--resources', '../m.egg'], join(dir, 'up', 'work')).files[0];
    const upGot = await esm.validate(egg, { name: '../m.egg', resources: { files: { '../maps/a.png': PNG4 } } });
    assert.deepEqual(upGot, upWant);
    assert.equal(upGot.resources[0].status, 'found');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('no files given: every reference missing; no resources option: no list (as before)', async () => {
  const egg = Buffer.from(EGG(['maps/a.png']));
  const none = await esm.validate(egg, { name: 'm.egg', resources: {} });
  assert.deepEqual(none.resources.map((r) => r.status), ['missing']);
  assert.deepEqual(none.messages.map((m) => m.id), ['MDL-RES-001']);
  assert.equal(none.verdict, 'invalid');
  const off = await esm.validate(egg, { name: 'm.egg' });
  assert.equal('resources' in off, false);
  assert.equal(off.verdict, 'valid');
  /* nothing stays behind between calls: the file given once is not found the next time */
  await esm.validate(egg, { name: 'm.egg', resources: { files: { 'maps/a.png': PNG4 } } });
  assert.deepEqual((await esm.validate(egg, { name: 'm.egg', resources: {} })).resources.map((r) => r.status), ['missing']);
});

test('a bad resources option rejects with EINVAL and says why', async () => {
  const egg = Buffer.from(EGG(['a.png']));
  for (const [resources, words, name = 'm.egg'] of [
    ['yes', /resources must be an object/],
    [{ file: {} }, /unknown resources key 'file'/],
    [{ files: [PNG4] }, /object or a Map/],
    [{ files: { 'maps/..': PNG4 } }, /must be a relative path to a file/],
    [{ files: { '/etc/a.png': PNG4 } }, /'\/etc\/a.png' must be a relative path/],
    [{ files: { 'a.png': 'text' } }, /bytes must be a Uint8Array/],
    [{ dirs: ['a:b'] }, /without ':'/],
    [{ dirs: '/abs' }, /without ':'|relative/],
    [{}, /name must be a relative path/, '/abs/m.egg'],
  ])
    await assert.rejects(esm.validate(egg, { name, resources }), (e) => e.code === 'EINVAL' && words.test(e.message), JSON.stringify(resources));
  await assert.rejects(esm.poses(egg, { name: 'm.egg', resources: {} }), (e) => e.code === 'EINVAL' && /unknown option 'resources'/.test(e.message));
});
