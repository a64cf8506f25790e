// page.test.mjs - the page in headless Chromium (Debian's, driven by puppeteer-core; WebGL via
// SwiftShader): every example through ?model= and through a synthetic drop on the file:// page,
// each embedded report equal to the CLI's `-f json` entry, every diagnostic clicked and the
// selected element checked from the page's state and from the pixels drawn.
// Run by page.sh (WEB_BROWSER_TEST=1); another runner that walks web/test skips it.
// Environment: MDLCHECK (the CLI), WEB_DIST (folder of the built index.html), SRCDIR (source
// tree), CHROMIUM (default /usr/bin/chromium), WEB_SHOTS (screenshots; default a temp folder).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join, resolve } from 'node:path';
import { createRequire } from 'node:module';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { gzipSync } from 'node:zlib';
import { serve } from './server.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const ENABLED = process.env.WEB_BROWSER_TEST === '1';

const SRCDIR = resolve(process.env.SRCDIR || join(here, '..', '..', '..'));
const MDLCHECK = resolve(process.env.MDLCHECK || join(SRCDIR, 'validator', 'mdlcheck'));
const DIST = resolve(process.env.WEB_DIST || join(SRCDIR, 'web', 'dist'));
const SHOTS = resolve(process.env.WEB_SHOTS || mkdtempSync(join(tmpdir(), 'mdlcheck-shots-')));
const MODEL = /\.(iqm|iqe|egg|pz|qmsh|x42)$/;
const EXAMPLES = ENABLED ? readdirSync(join(SRCDIR, 'examples')).filter((n) => MODEL.test(n)).sort() : [];

// What each diagnostic of the broken examples must select: the element the rule is about,
// read off the example files (examples/README.md says what is broken in each); 'dropped': an
// element the library left out of the model (a face naming a missing vertex).
const EXPECTED = {
  'broken-parent.iqm': { 'IQM-JNT-002': 'joint:1', 'IQM-POS-002': 'joint:1' },
  'broken.iqe': { 'IQE-JNT-001': 'joint:1', 'IQE-NUM-001': 'vertex:1', 'IQE-VTX-008': 'vertex:1',
    'IQE-FAC-001': 'triangle:dropped' },
  'broken.egg': { 'EGG-ENUM-005': 'file', 'EGG-REF-001': 'triangle:dropped', 'EGG-REF-006': 'triangle:dropped' },
  // generated below: broken.egg gzipped (the library inflates it; the source view shows its text)
  'broken.egg.pz': { 'EGG-ENUM-005': 'file', 'EGG-REF-001': 'triangle:dropped', 'EGG-REF-006': 'triangle:dropped' },
  // generated below from skinned.iqe, one defect each
  'degenerate.iqe': { 'IQE-FAC-003': 'triangle:0' },
  'nan-weight.iqe': { 'IQE-NUM-002': 'vertex:0', 'IQE-VTX-008': 'vertex:0' },
  'unit-quat.iqe': { 'IQE-POS-001': 'joint:0' },
  // generated below from corpus/x42/v5 cases (patches of walker.x42, which is their base)
  'X42-BON-001.x42': { 'X42-BON-001': 'joint:1' },
  'X42-KEY-001.x42': { 'X42-KEY-001': 'joint:1' },
  'X42-IDX-001.x42': { 'X42-IDX-001': 'triangle:0' },
  'X42-BLD-001.x42': { 'X42-BLD-001': 'vertex:0' },
  'X42-BLD-002.x42': { 'X42-BLD-002': 'vertex:0' },
  'X42-INF-001.x42': { 'X42-INF-001': 'joint:9' },
};
const X42_CASES = Object.keys(EXPECTED).filter((n) => n.startsWith('X42-'));

// A corpus case's input: its base file with its patches ({at, u8|u16|f32}) applied.
function corpusInput(dir, id) {
  const text = readFileSync(join(SRCDIR, 'corpus', dir, `${id}-t01-fail.yaml`), 'utf8');
  const base = /^\s*base: (\S+)$/m.exec(text)[1];
  const bytes = Buffer.from(readFileSync(join(SRCDIR, 'corpus', dir, base)));
  for (const m of text.matchAll(/- \{at: (\d+), (u8|u16|f32): ([^}]+)\}/g)) {
    const [at, type, v] = [Number(m[1]), m[2], m[3].trim()];
    if (type === 'u8') bytes.writeUInt8(Number(v), at);
    if (type === 'u16') bytes.writeUInt16LE(Number(v), at);
    if (type === 'f32') bytes.writeFloatLE(v === '.nan' ? NaN : Number(v), at);
  }
  return bytes;
}

// Egg joints placed by <Transform> components in file order (each applies after the ones before
// it) and by <DefaultPose>; the heads below are worked out by hand from Panda3D's conventions.
const JOINTS_EGG = `<CoordinateSystem> { Z-up }
<Group> c {
  <Dart> { 1 }
  <VertexPool> p {
    <Vertex> 0 { 0 1 0 }
    <Vertex> 1 { 1 1 0 }
    <Vertex> 2 { 0 0 2.5 }
  }
  <Polygon> { <VertexRef> { 0 1 2 <Ref> { p } } }
  <Joint> a {
    <Transform> { <Translate> { 1 0 0 } <RotZ> { 90 } }
    <Joint> b {
      <Transform> { <Scale> { 2 } <Translate> { 0 0 1 } <Rotate> { 90 1 0 0 } }
      <VertexRef> { 1 <Ref> { p } }
    }
  }
  <Joint> d {
    <Transform> { <Translate> { 0 0 2 } }
    <DefaultPose> { <Translate> { 0 0 3 } }
    <VertexRef> { 2 <Ref> { p } }
  }
}
`;
// a: (1,0,0) turned 90 degrees about Z; b: its origin scaled, moved up 1, turned about X to
// (0,-1,0), then through a; d: bound at z = 2
const JOINTS_BIND = [[0, 1, 0], [1, 1, 0], [0, 0, 2]];

// a model naming one texture, and that texture (a 4x4 RGBA PNG header)
const PNG4 = '89504e470d0a1a0a0000000d494844520000000400000004080600000000000000';
const TEX_EGG = '<CoordinateSystem> { Z-up }\n<Texture> skin { "skin.png" }\n';
const b64 = (x) => Buffer.from(x).toString('base64');

// World heads of the CLI's poses (`mdlcheck poses -f json`: parent-relative t, r, s).
function posesHeads(joints) {
  const cross = (a, b) => [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]];
  const rotate = (q, v) => {
    const u = q.slice(0, 3);
    const c1 = cross(u, v);
    const c2 = cross(u, c1);
    return v.map((x, k) => x + 2 * q[3] * c1[k] + 2 * c2[k]);
  };
  const apply = (j, p) => {
    const { t, r, s, parent } = joints[j];
    const local = rotate(r, p.map((x, k) => x * s[k])).map((x, k) => x + t[k]);
    return parent >= 0 ? apply(parent, local) : local;
  };
  return joints.map((_, j) => apply(j, [0, 0, 0]));
}

const near = (a, b, what) => a.forEach((x, k) => assert.ok(Math.abs(x - b[k]) < 1e-6, `${what}: ${a} is not ${b}`));

let browser;
let server;
let gen;
const browserTest = (...args) => (ENABLED ? test(...args) : undefined);

// The CLI's JSON report of one file, its entry named as the page names it (the base name).
function cliReport(path, flags = []) {
  let out;
  try {
    out = execFileSync(MDLCHECK, ['-f', 'json', ...flags, path], { encoding: 'utf8' });
  } catch (e) {
    out = e.stdout; // exit 1: an invalid file still has its report
  }
  const report = JSON.parse(out);
  report.files[0].path = basename(path);
  return report;
}
const cliEntry = (path, flags) => cliReport(path, flags).files[0];

// The CLI's JSON report run in a folder on paths relative to it (--resources reports resolved
// paths relative to where it runs, as the page names dropped files relative to the drop).
function cliIn(cwd, args) {
  try {
    return JSON.parse(execFileSync(MDLCHECK, ['-f', 'json', ...args], { cwd, encoding: 'utf8' }));
  } catch (e) {
    return JSON.parse(e.stdout);
  }
}

// Drops files on the page: [{ name, b64, path }] (path: the name in a dropped folder, as
// webkitRelativePath gives it for the files of a chosen folder).
function drop(page, files) {
  return page.evaluate((list) => {
    const dt = new DataTransfer();
    for (const f of list) {
      const file = new File([Uint8Array.from(atob(f.b64), (c) => c.charCodeAt(0))], f.name);
      if (f.path) Object.defineProperty(file, 'webkitRelativePath', { value: f.path });
      dt.items.add(file);
    }
    document.getElementById('drop').dispatchEvent(new DragEvent('drop', { dataTransfer: dt, bubbles: true, cancelable: true }));
  }, files);
}

before(async () => {
  if (!ENABLED) return;
  const puppeteer = createRequire(join(here, '..', '..', 'page', 'package.json'))('puppeteer-core');
  gen = mkdtempSync(join(tmpdir(), 'mdlcheck-gen-'));
  const skinned = readFileSync(join(SRCDIR, 'examples', 'skinned.iqe'), 'utf8');
  writeFileSync(join(gen, 'degenerate.iqe'), skinned.replace(/^fm 0 1 2$/m, 'fm 0 1 1'));
  writeFileSync(join(gen, 'nan-weight.iqe'), skinned.replace(/^vb .*$/m, 'vb 0 nan'));
  writeFileSync(join(gen, 'unit-quat.iqe'), skinned.replace(/^pq 0 0 0 0 0 0 1$/m, 'pq 0 0 0 0 0 0 2'));
  writeFileSync(join(gen, 'repeats.iqe'), skinned.replace(/^vb .*$/m, 'vb 0 nan')
    .replace(/^fm 0 1 2$/m, 'fm 0 1 1\nfm 0 0 1\nfm 1 1 2\nfm 2 2 2\nfm 0 2 2'));
  writeFileSync(join(gen, 'joints.egg'), JOINTS_EGG);
  writeFileSync(join(gen, 'broken.egg.pz'), gzipSync(readFileSync(join(SRCDIR, 'examples', 'broken.egg'))));
  writeFileSync(join(gen, 'tex.egg'), TEX_EGG);
  writeFileSync(join(gen, 'skin.png'), Buffer.from(PNG4, 'hex')); // beside it, never fetched
  for (const name of X42_CASES) writeFileSync(join(gen, name), corpusInput('x42/v5', name.replace(/\.x42$/, '')));
  mkdirSync(SHOTS, { recursive: true });
  server = await serve({ '/dist/': DIST, '/examples/': join(SRCDIR, 'examples'), '/gen/': gen });
  browser = await puppeteer.launch({
    executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
    headless: true,
    args: ['--no-sandbox', '--use-angle=swiftshader', '--enable-unsafe-swiftshader',
      '--allow-file-access-from-files', '--disable-background-networking', '--no-first-run'],
  });
});

after(async () => {
  if (browser) await browser.close();
  if (server) await server.close();
});

async function newPage() {
  const page = await browser.newPage();
  await page.setViewport({ width: 1280, height: 860 });
  const errors = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  page.on('console', (m) => { if (m.type() === 'error') errors.push(m.text()); });
  page.errors = errors;
  return page;
}

// Waits until the page is idle with `count` files; returns the embedded report.
async function embeddedReport(page, count) {
  await page.waitForFunction((n) => document.body.dataset.state === 'ready' &&
    window.mdlcheckPage.files.length === n && window.mdlcheckPage.files.every((f) => f.source === undefined),
  { timeout: 60000 }, count);
  const failed = await page.evaluate(() => window.mdlcheckPage.files.filter((f) => !f.entry)
    .map((f) => `${f.name}: ${f.status}`));
  assert.deepEqual(failed, [], 'every file validated');
  return page.evaluate(() => JSON.parse(document.getElementById('mdlcheck-report').textContent));
}

// Pixels of the 3D view: distinct colours and how many are the highlight colour.
function viewPixels(page) {
  return page.evaluate(() => {
    const gl = document.querySelector('#viewer canvas');
    const c = document.createElement('canvas');
    c.width = gl.width;
    c.height = gl.height;
    const ctx = c.getContext('2d');
    ctx.drawImage(gl, 0, 0);
    const d = ctx.getImageData(0, 0, c.width, c.height).data;
    const colours = new Set();
    let highlight = 0;
    for (let i = 0; i < d.length; i += 4) {
      colours.add((d[i] << 16) | (d[i + 1] << 8) | d[i + 2]);
      if (d[i] > 200 && d[i + 1] < 110 && d[i + 2] > 40 && d[i + 2] < 150) highlight++;
    }
    return { colours: colours.size, highlight };
  });
}

async function checkDiagnostics(page, name, entry, bytes) {
  const expected = EXPECTED[name] || {};
  // the note under the view names why there is no animation; it does not repeat the report
  const note = await page.$eval('#view-note', (e) => e.textContent);
  assert.ok(!/(error|warning)\[/.test(note), `${name}: the view note repeats diagnostics: ${note}`);
  for (const [i, d] of entry.messages.entries()) {
    if (d.folded !== undefined) continue;
    await page.click(`button.diag[data-index="${i}"]`);
    await page.waitForFunction((k) => window.mdlcheckPage.selection.diagnostic === k, {}, i);
    const got = await page.evaluate(() => ({ sel: window.mdlcheckPage.selection,
      attr: document.getElementById('viewer').dataset.selection,
      mark: [...document.querySelectorAll('#source mark')].map((m) => m.textContent).join('') }));
    const want = expected[d.id];
    assert.ok(want, `${name}: no expected selection for ${d.id}: add it to EXPECTED`);
    assert.equal(got.attr, want, `${name}: ${d.id} selects ${got.attr}, expected ${want}`);
    if (d.line !== undefined) assert.match(got.mark, new RegExp(`^> +${d.line} \\|`), `${name}: ${d.id} source line`);
    if (d.offset !== undefined) {
      const hex = bytes[d.offset].toString(16).padStart(2, '0');
      assert.ok(got.mark.includes(`[${hex}]`), `${name}: ${d.id} bytes around offset ${d.offset}`);
    }
    if (got.sel.drawable) {
      const px = await viewPixels(page);
      assert.ok(px.highlight > 0, `${name}: ${d.id}: the selected ${want} is drawn highlighted`);
    }
  }
  for (const id of Object.keys(expected)) {
    assert.ok(entry.messages.some((d) => d.id === id), `${name}: expected ${id} in the report`);
  }
}

// What is drawn is what the library decoded: the counts the CLI's report gives, every triangle
// drawn, and in the base pose the joints where `mdlcheck poses` puts them (the skinned mesh the
// stored one).
async function checkDrawn(page, name, entry, file) {
  const got = await page.evaluate(() => {
    const f = window.mdlcheckPage.files[window.mdlcheckPage.current];
    const v = window.mdlcheckPage.viewer;
    const head = (m) => [m.elements[12], m.elements[13], m.elements[14]];
    return { decoded: f.model.decoded, vertices: f.model.vertices.length, triangles: f.model.triangles.length,
      joints: f.model.joints.length, drawn: v.mesh.geometry.index.count / 3, bind: v.bind.map(head),
      inRange: f.model.triangles.filter((t) => t.every((i) => i < f.model.vertices.length)).length,
      positions: [...v.positions], stored: f.model.vertices.flatMap((x) => x.p) };
  });
  assert.ok(got.decoded, `${name}: the library decoded it`);
  if (entry.stats) {
    // where the report counts them (an Egg's validation does not build its geometry)
    if ('vertices' in entry.stats) assert.equal(got.vertices, entry.stats.vertices, `${name}: vertices as the CLI counts them`);
    if ('triangles' in entry.stats) assert.equal(got.triangles, entry.stats.triangles, `${name}: triangles as the CLI counts them`);
    if ('joints' in entry.stats) assert.equal(got.joints, entry.stats.joints, `${name}: joints as the CLI counts them`);
  }
  assert.equal(got.drawn, got.inRange, `${name}: every triangle inside the vertex table drawn`);
  got.stored.forEach((x, i) => assert.ok(Math.abs(x - got.positions[i]) < 1e-4, `${name}: position ${i} in the base pose`));
  let cli;
  try {
    cli = JSON.parse(execFileSync(MDLCHECK, ['poses', '-f', 'json', file], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }));
  } catch {
    return; // a file with errors has no poses to compare with
  }
  assert.equal(got.joints, cli.joints.length, `${name}: the joints of \`mdlcheck poses\``);
  posesHeads(cli.joints).forEach((h, j) => near(got.bind[j], h, `${name}: joint ${j} against \`mdlcheck poses\``));
}

// The frame slider (driven with the keyboard) poses the skeleton from the validator's frames:
// when the last frame differs from the first in the poses, the drawn joints move.
async function checkAnimation(page, name) {
  const anim = await page.evaluate(() => {
    const f = window.mdlcheckPage.files[window.mdlcheckPage.current];
    const a = f.poses && f.poses.anims.find((x) => x.frames && x.frames.length > 1);
    return a ? { index: f.poses.anims.indexOf(a), frames: a.frames.length,
      moves: JSON.stringify(a.frames[0].joints) !== JSON.stringify(a.frames[a.frames.length - 1].joints) } : null;
  });
  if (!anim) return;
  await page.select('#anim', String(anim.index));
  const heads = () => page.evaluate(() => JSON.stringify(window.mdlcheckPage.viewer.heads));
  const first = await heads();
  await page.focus('#frame');
  await page.keyboard.press('End');
  assert.equal(await page.$eval('#frame-out', (e) => e.textContent), `frame ${anim.frames} of ${anim.frames}`, `${name}: slider`);
  if (anim.moves) assert.notEqual(await heads(), first, `${name}: the last frame poses the skeleton`);
}

async function checkModelUrl(name, dir) {
  const page = await newPage();
  await page.goto(`${server.url}/dist/index.html?model=/${dir}/${encodeURIComponent(name)}`);
  const report = await embeddedReport(page, 1);
  const file = join(dir === 'gen' ? gen : join(SRCDIR, 'examples'), name);
  assert.deepEqual(report.files[0], cliEntry(file), `${name}: the page's report is the CLI's`);
  const px = await viewPixels(page);
  const empty = await page.evaluate(() => {
    const f = window.mdlcheckPage.files[0];
    return !f.model.vertices.length && !f.model.joints.length;
  });
  if (empty) // broken.egg: its one polygon names a missing vertex, and the model keeps no other
    assert.match(await page.$eval('#view-note', (e) => e.textContent), /^Nothing to draw/, `${name}: says why nothing is drawn`);
  else assert.ok(px.colours > 3, `${name}: the 3D view draws something (${px.colours} colours)`);
  await checkDrawn(page, name, report.files[0], file);
  await checkDiagnostics(page, name, report.files[0], readFileSync(file));
  await checkAnimation(page, name);
  if (report.files[0].messages.length) await page.click('button.diag[data-index="0"]');
  await page.screenshot({ path: join(SHOTS, `${name}.png`) });
  assert.deepEqual(page.errors, [], `${name}: no page errors`);
  await page.close();
}

if (!ENABLED) test('the page in Chromium', { skip: 'run by web/test/browser/page.sh (make check)' }, () => {});

for (const name of EXAMPLES) {
  browserTest(`?model= ${name}`, { timeout: 120000 }, () => checkModelUrl(name, 'examples'));
}
for (const name of ['degenerate.iqe', 'nan-weight.iqe', 'unit-quat.iqe', 'broken.egg.pz', ...X42_CASES]) {
  browserTest(`?model= generated ${name}`, { timeout: 120000 }, () => checkModelUrl(name, 'gen'));
}

// X42: the mesh drawn with the vertices and triangles the validator counts, skinned through the
// influences, and the skeleton in the pose the validator's poses give.
browserTest('X42 mesh and skeleton', { timeout: 120000 }, async () => {
  const page = await newPage();
  await page.goto(`${server.url}/dist/index.html?model=/examples/walker.x42`);
  const entry = (await embeddedReport(page, 1)).files[0];
  const got = await page.evaluate(() => {
    const f = window.mdlcheckPage.files[0];
    const v = window.mdlcheckPage.viewer;
    return { vertices: f.model.vertices.length, triangles: f.model.triangles.length,
      drawn: v.mesh.geometry.index.count / 3, positions: [...v.positions],
      stored: f.model.vertices.map((x) => x.p), joints: f.model.joints,
      poses: f.poses.joints, note: document.getElementById('view-note').textContent };
  });
  assert.ok(entry.stats.vertices > 0 && entry.stats.triangles > 0);
  assert.equal(got.vertices, entry.stats.vertices, 'vertices as the validator counts them');
  assert.equal(got.triangles, entry.stats.triangles, 'triangles as the validator counts them');
  assert.equal(got.drawn, entry.stats.triangles, 'every triangle drawn');
  assert.equal(got.note, '', 'no "no mesh preview" note');
  // the drawn base pose is the validator's poses' (the same decode)
  assert.equal(got.joints.length, got.poses.length);
  assert.deepEqual(got.joints, got.poses);
  // in the base pose the skinned mesh is the stored one
  got.stored.flat().forEach((x, i) => assert.ok(Math.abs(x - got.positions[i]) < 1e-4, `position ${i}`));
  // a later frame moves the skinned vertices
  await checkAnimation(page, 'walker.x42');
  const moved = await page.evaluate(() => [...window.mdlcheckPage.viewer.positions]);
  assert.ok(moved.some((x, i) => Math.abs(x - got.positions[i]) > 1e-3), 'animation skins the mesh');
  assert.deepEqual(page.errors, [], 'no page errors');
  await page.close();
});

// Egg <Joint> transforms: the page's bind pose is the CLI's, and drawn without animation.
browserTest('Egg joints from <Transform> components and <DefaultPose>', { timeout: 120000 }, async () => {
  const page = await newPage();
  await page.goto(`${server.url}/dist/index.html?model=/gen/joints.egg`);
  const entry = (await embeddedReport(page, 1)).files[0];
  assert.deepEqual(entry, cliEntry(join(gen, 'joints.egg')));
  const got = await page.evaluate(() => {
    const v = window.mdlcheckPage.viewer;
    const head = (m) => [m.elements[12], m.elements[13], m.elements[14]];
    return { bind: v.bind.map(head), shown: v.heads.map((h) => [h.x, h.y, h.z]),
      vertex2: [...v.positions.slice(6, 9)] };
  });
  const cli = JSON.parse(execFileSync(MDLCHECK, ['poses', '-f', 'json', join(gen, 'joints.egg')], { encoding: 'utf8' }));
  posesHeads(cli.joints).forEach((h, j) => near(got.bind[j], h, `joint ${j} bind head against the CLI's poses`));
  JOINTS_BIND.forEach((h, j) => near(got.bind[j], h, `joint ${j} bind head`));
  JOINTS_BIND.forEach((h, j) => near(got.shown[j], h, `joint ${j} drawn head`));
  // vertex 2, bound to d, stays where the file puts it (the library's model has no
  // <DefaultPose>: the view draws the bind pose)
  near(got.vertex2, [0, 0, 2.5], 'vertex 2 in the bind pose');
  assert.deepEqual(page.errors, [], 'no page errors');
  await page.close();
});

// Options: set in the form with the keyboard they validate the file again and go into the address;
// a link with options gives the CLI's report under the same flags; a bad one validates nothing.
browserTest('options from the form and from the address', { timeout: 120000 }, async () => {
  const file = join(SRCDIR, 'examples', 'broken-parent.iqm');
  const page = await newPage();
  await page.goto(`${server.url}/dist/index.html?model=/examples/broken-parent.iqm`);
  let report = await embeddedReport(page, 1);
  assert.ok(report.files[0].messages.some((d) => d.id === 'IQM-JNT-002'), 'the file has IQM-JNT-002');
  const runs = await page.evaluate(() => window.mdlcheckPage.runs);
  await page.focus('#opt-ignore');
  await page.keyboard.type('IQM-JNT-002');
  await page.keyboard.press('Enter');
  await page.waitForFunction((n) => window.mdlcheckPage.runs > n && document.body.dataset.state === 'ready', {}, runs);
  report = await embeddedReport(page, 1);
  assert.deepEqual(report, cliReport(file, ['--ignore=IQM-JNT-002']), 'the report under --ignore');
  assert.deepEqual(await page.$$eval('button.diag[data-rule="IQM-JNT-002"]', (b) => b.length), 0);
  const url = new URL(page.url());
  assert.equal(url.searchParams.get('model'), '/examples/broken-parent.iqm');
  assert.equal(url.searchParams.get('ignore'), 'IQM-JNT-002');
  assert.match(await page.$eval('#options-status', (e) => e.textContent), /validated with --ignore=IQM-JNT-002/);
  // the skeleton and animations come under the same options, as from `mdlcheck poses --ignore`
  const cliPoses = JSON.parse(execFileSync(MDLCHECK, ['poses', '-f', 'json', '--ignore=IQM-JNT-002', file], { encoding: 'utf8' }));
  assert.deepEqual(await page.evaluate(() => window.mdlcheckPage.files[0].poses?.joints.map((j) => [j.name, j.parent])),
    cliPoses.joints.map((j) => [j.name, j.parent]), 'poses under the options');
  await page.close();

  const flags = ['--ignore=IQM-JNT-002', '--profile=engine', '--max-per-rule=1', '--fail-on=warning'];
  const linked = await newPage();
  await linked.goto(`${server.url}/dist/index.html?model=/examples/broken-parent.iqm&profile=engine&ignore=IQM-JNT-002&maxPerRule=1&failOn=warning`);
  assert.deepEqual(await embeddedReport(linked, 1), cliReport(file, flags), 'a link with options: the CLI\'s report');
  assert.deepEqual(await linked.evaluate(() => ['opt-profile', 'opt-ignore', 'opt-max-per-rule', 'opt-fail-on']
    .map((id) => document.getElementById(id).value)), ['engine', 'IQM-JNT-002', '1', 'warning'], 'the form shows the link\'s options');
  // back to the defaults: the CLI's plain report, the address without options
  const before = await linked.evaluate(() => window.mdlcheckPage.runs);
  await linked.click('#opt-reset');
  await linked.waitForFunction((n) => window.mdlcheckPage.runs > n && document.body.dataset.state === 'ready', {}, before);
  assert.deepEqual(await embeddedReport(linked, 1), cliReport(file), 'defaults again');
  assert.equal(new URL(linked.url()).search, '?model=%2Fexamples%2Fbroken-parent.iqm');
  assert.deepEqual(linked.errors, [], 'no page errors');
  await linked.close();

  // a pattern that matches no rule: the CLI's usage error, and no report (never a stale one)
  const bad = await newPage();
  await bad.goto(`${server.url}/dist/index.html?model=/examples/broken-parent.iqm&ignore=NOPE-999`);
  await bad.waitForFunction(() => document.body.dataset.state === 'ready' && window.mdlcheckPage.runs === 1);
  const shown = await bad.evaluate(() => ({ files: JSON.parse(document.getElementById('mdlcheck-report').textContent || '{"files":[]}').files,
    status: document.getElementById('options-status').textContent, report: document.getElementById('report').textContent }));
  assert.deepEqual(shown.files, []);
  assert.match(shown.status, /Not validated with --ignore=NOPE-999: .*NOPE-999/);
  assert.match(shown.report, /not validated/);
  await bad.close();
});

browserTest('synthetic drop of every example on the file:// page', { timeout: 180000 }, async () => {
  const page = await newPage();
  await page.goto(pathToFileURL(join(DIST, 'index.html')).href);
  const files = EXAMPLES.map((name) => ({ name,
    b64: readFileSync(join(SRCDIR, 'examples', name)).toString('base64') }));
  await page.evaluate((list) => {
    const dt = new DataTransfer();
    for (const f of list) {
      const bytes = Uint8Array.from(atob(f.b64), (c) => c.charCodeAt(0));
      dt.items.add(new File([bytes], f.name));
    }
    document.getElementById('drop').dispatchEvent(new DragEvent('drop', { dataTransfer: dt, bubbles: true, cancelable: true }));
  }, files);
  const report = await embeddedReport(page, EXAMPLES.length);
  assert.deepEqual(report.files.map((f) => f.path), EXAMPLES);
  // dropped together, the examples are one tree: each is checked with the others as the files
  // it may name, as `mdlcheck --resources` in examples/
  const cli = cliIn(join(SRCDIR, 'examples'), ['--resources', ...EXAMPLES]);
  for (const entry of report.files) {
    assert.deepEqual(entry, cli.files.find((f) => f.path === entry.path), `${entry.path}: dropped report is the CLI's`);
  }
  // keyboard: the file list and the diagnostics are reachable and move with the arrow keys
  await page.focus('button.file[data-index="0"]');
  await page.keyboard.press('ArrowDown');
  assert.equal(await page.evaluate(() => document.activeElement.dataset.index), '1');
  const broken = report.files.findIndex((f) => f.verdict === 'invalid');
  await page.focus(`button.file[data-index="${broken}"]`);
  await page.keyboard.press('Enter');
  await page.waitForSelector('button.diag');
  // the list drawn again keeps the focus on the chosen file, and is one Tab stop
  assert.equal(await page.evaluate(() => document.activeElement.dataset.index), String(broken));
  assert.deepEqual(await page.$$eval('button.file', (bs) => bs.filter((b) => b.tabIndex === 0).map((b) => b.dataset.index)), [String(broken)]);
  await page.focus('button.diag');
  await page.keyboard.press('Enter');
  await page.waitForFunction(() => window.mdlcheckPage.selection.diagnostic === 0);
  assert.deepEqual(page.errors, [], 'no page errors');
  await page.close();
});

// Keyboard and text: one Tab stop per list, focus kept when a list or the report is drawn again,
// the 3D view turned and zoomed from the keyboard, severities and verdicts said in words.
browserTest('keyboard and text without colour', { timeout: 120000 }, async () => {
  const page = await newPage();
  await page.goto(`${server.url}/dist/index.html?model=/gen/repeats.iqe`);
  const entry = (await embeddedReport(page, 1)).files[0];
  const active = () => page.evaluate(() => {
    const a = document.activeElement;
    return `${a.id || a.className}${a.dataset.index !== undefined ? `:${a.dataset.index}` : ''}`;
  });
  // Tab leaves the list of diagnostics in one step; Shift+Tab comes back to the last one focused
  await page.focus('button.diag[data-index="0"]');
  await page.keyboard.press('ArrowDown');
  const second = await active();
  assert.match(second, /^diag .*:\d+$/);
  await page.keyboard.press('Tab');
  assert.doesNotMatch(await active(), /^diag/, 'Tab leaves the diagnostics');
  await page.keyboard.down('Shift');
  await page.keyboard.press('Tab');
  await page.keyboard.up('Shift');
  assert.equal(await active(), second, 'Shift+Tab returns to the diagnostic last focused');
  // Enter chooses it and the selection is said in words; the focus stays on it
  await page.keyboard.press('Enter');
  await page.waitForFunction(() => window.mdlcheckPage.selection.diagnostic !== undefined);
  assert.equal(await active(), second);
  assert.match(await page.$eval('#selection-caption', (e) => e.textContent), /selected (vertex|triangle|joint) \d+/);
  // a severity filter toggled with the keyboard keeps the focus on its box
  await page.focus('#sev-warning');
  await page.keyboard.press('Space');
  assert.equal(await page.$eval('#sev-warning', (e) => e.checked), false);
  assert.equal(await active(), 'sev-warning', 'the filter keeps the focus after the report is drawn again');
  await page.keyboard.press('Space');
  // severity and verdict in text, not only colour
  const words = await page.$$eval('button.diag', (bs) => bs.filter((b) => b.checkVisibility())
    .map((b) => [b.dataset.index, b.querySelector('.sev').textContent, b.getAttribute('aria-label')]));
  for (const [i, sev, label] of words) {
    const d = entry.messages[Number(i)];
    assert.ok(sev.includes(d.severity), `diagnostic ${i} shows "${d.severity}" as text`);
    assert.ok(label.startsWith(d.severity.toUpperCase()), `diagnostic ${i} is read as ${d.severity}`);
  }
  assert.match(await page.$eval('#verdict', (e) => e.textContent), /INVALID/);
  assert.match(await page.$eval('button.file', (e) => e.textContent), /invalid \(\d+ errors?, \d+ warnings?\)/);
  // the 3D view: reached with Tab, turned by the arrow keys, zoomed by + and -, reframed by Home
  const camera = () => page.evaluate(() => window.mdlcheckPage.viewer.camera.position.toArray());
  const dist = () => page.evaluate(() => {
    const v = window.mdlcheckPage.viewer;
    return v.camera.position.distanceTo(v.controls.target);
  });
  assert.equal(await page.$eval('#viewer', (e) => e.tabIndex), 0);
  await page.focus('#viewer');
  const start = await camera();
  const d0 = await dist();
  await page.keyboard.press('ArrowLeft');
  const turned = await camera();
  assert.ok(turned.some((x, k) => Math.abs(x - start[k]) > 1e-3), 'ArrowLeft turns the view');
  assert.ok(Math.abs(await dist() - d0) < 1e-6 * d0, 'turning keeps the distance');
  await page.keyboard.press('+');
  assert.ok(await dist() < d0 * 0.9, '+ zooms in');
  await page.keyboard.press('Home');
  (await camera()).forEach((x, k) => assert.ok(Math.abs(x - start[k]) < 1e-6, 'Home frames the model again'));
  assert.deepEqual(page.errors, [], 'no page errors');
  await page.close();
});

browserTest('filters by severity and rule, repeats folded', { timeout: 120000 }, async () => {
  const page = await newPage();
  await page.goto(`${server.url}/dist/index.html?model=/gen/repeats.iqe`);
  const report = await embeddedReport(page, 1);
  const entry = report.files[0];
  assert.deepEqual(entry, cliEntry(join(gen, 'repeats.iqe')));
  const visible = () => page.evaluate(() => [...document.querySelectorAll('button.diag')]
    .filter((b) => b.checkVisibility()).map((b) => b.dataset.rule));
  const repeats = entry.messages.filter((d) => d.id === 'IQE-FAC-003').length;
  assert.ok(repeats > 3, `the file repeats IQE-FAC-003 (${repeats} times)`);
  // past the third, a rule's repeats are folded under one summary, opened on demand
  let shown = await visible();
  assert.equal(shown.filter((r) => r === 'IQE-FAC-003').length, 3);
  assert.equal(await page.$eval('details.fold summary', (e) => e.textContent), `${repeats - 3} more IQE-FAC-003`);
  await page.click('details.fold summary');
  shown = await visible();
  assert.equal(shown.filter((r) => r === 'IQE-FAC-003').length, repeats);
  // severity: without warnings only the errors stay
  await page.click('#sev-warning');
  shown = await visible();
  const errors = entry.messages.filter((d) => d.severity === 'error').map((d) => d.id);
  assert.deepEqual(shown, errors);
  await page.click('#sev-warning');
  // rule: one rule only
  await page.select('#rule-filter', 'IQE-NUM-002');
  shown = await visible();
  assert.deepEqual(shown, entry.messages.filter((d) => d.id === 'IQE-NUM-002').map((d) => d.id));
  assert.deepEqual(page.errors, [], 'no page errors');
  await page.close();
});

// Referenced files: files dropped together are the models' tree (the CLI's --resources over the
// same files); the report lists each reference with its status in words, MDL-RES-* diagnostics
// are diagnostics like any other, and a model opened by its address alone says it was not checked.

browserTest('referenced files: a model dropped with its texture, and without it', { timeout: 120000 }, async () => {
  const dir = mkdtempSync(join(tmpdir(), 'mdlcheck-refs-'));
  writeFileSync(join(dir, 'tex.egg'), TEX_EGG);
  const missing = cliIn(dir, ['--resources', 'tex.egg']).files[0];
  writeFileSync(join(dir, 'skin.png'), Buffer.from(PNG4, 'hex'));
  const found = cliIn(dir, ['--resources', 'tex.egg']).files[0];
  assert.deepEqual(found.resources.map((r) => r.status), ['found']);
  assert.deepEqual(missing.messages.map((m) => m.id), ['MDL-RES-001']);

  const page = await newPage();
  await page.goto(pathToFileURL(join(DIST, 'index.html')).href);
  await drop(page, [{ name: 'tex.egg', b64: b64(TEX_EGG) }, { name: 'skin.png', b64: b64(Buffer.from(PNG4, 'hex')) }]);
  let report = await embeddedReport(page, 1);
  assert.deepEqual(report.files, [found], 'the model dropped with its texture: the CLI\'s entry; the image is no model');
  const shown = () => page.evaluate(() => ({
    summary: document.getElementById('references-summary').textContent,
    items: [...document.querySelectorAll('#references-list li')].map((li) => [li.dataset.status, li.textContent]),
    rules: [...document.querySelectorAll('button.diag')].map((b) => b.dataset.rule),
    progress: document.getElementById('progress-text').textContent }));
  let got = await shown();
  assert.equal(got.summary, 'All 1 found among the files given.');
  assert.deepEqual(got.items.map(([st]) => st), ['found']);
  assert.match(got.items[0][1], /^\u2714 found skin\.png \(texture, png 4\u00d74, 4 channels; line 2:18, <Texture> skin\)$/);
  assert.deepEqual(got.rules, []);
  assert.match(got.progress, /1 file validated; 1 other file read as files the models may name/);
  // validated again under options (the worker keeps the drop's files): still found
  const runs = await page.evaluate(() => window.mdlcheckPage.runs);
  await page.focus('#opt-fail-on');
  await page.select('#opt-fail-on', 'warning');
  await page.click('#opt-apply');
  await page.waitForFunction((n) => window.mdlcheckPage.runs > n && document.body.dataset.state === 'ready', {}, runs);
  report = await embeddedReport(page, 1);
  assert.deepEqual(report.files, [cliIn(dir, ['--resources', '--fail-on=warning', 'tex.egg']).files[0]], 'again under --fail-on=warning');
  assert.deepEqual(report.files[0].resources.map((r) => r.status), ['found']);
  assert.deepEqual(page.errors, [], 'no page errors');
  await page.close();

  const alone = await newPage();
  await alone.goto(pathToFileURL(join(DIST, 'index.html')).href);
  await drop(alone, [{ name: 'tex.egg', b64: b64(TEX_EGG) }]);
  report = await embeddedReport(alone, 1);
  assert.deepEqual(report.files, [missing], 'dropped alone: the CLI\'s entry, MDL-RES-001');
  got = await alone.evaluate(() => ({
    summary: document.getElementById('references-summary').textContent,
    items: [...document.querySelectorAll('#references-list li')].map((li) => [li.dataset.status, li.textContent]),
    verdict: document.getElementById('verdict').textContent }));
  assert.equal(got.summary, '1 of 1 referenced file not usable: skin.png (missing)');
  assert.match(got.items[0][1], /^\u2716 missing skin\.png/);
  assert.match(got.verdict, /INVALID/);
  // the diagnostic is a button like any other: chosen with the keyboard, its source line shown
  await alone.focus('button.diag[data-rule="MDL-RES-001"]');
  await alone.keyboard.press('Enter');
  await alone.waitForFunction(() => window.mdlcheckPage.selection.rule === 'MDL-RES-001');
  assert.match(await alone.$eval('#source mark', (e) => e.textContent), /^> +2 \|/);
  assert.deepEqual(alone.errors, [], 'no page errors');
  await alone.close();
});

browserTest('referenced files: a dropped folder is the search root (../textures from models/)', { timeout: 120000 }, async () => {
  const egg = '<CoordinateSystem> { Z-up }\n<Texture> a { "../textures/skin.png" }\n<Texture> b { "textures/Skin.png" }\n';
  const dir = mkdtempSync(join(tmpdir(), 'mdlcheck-refs-'));
  mkdirSync(join(dir, 'assets', 'models'), { recursive: true });
  mkdirSync(join(dir, 'assets', 'textures'));
  writeFileSync(join(dir, 'assets', 'models', 'm.egg'), egg);
  writeFileSync(join(dir, 'assets', 'textures', 'skin.png'), Buffer.from(PNG4, 'hex'));
  const want = cliIn(dir, ['--resources=assets', 'assets/models/m.egg']).files[0];
  assert.deepEqual(want.resources.map((r) => r.status), ['found', 'case-mismatch']);
  const page = await newPage();
  await page.goto(pathToFileURL(join(DIST, 'index.html')).href);
  await drop(page, [{ name: 'm.egg', path: 'assets/models/m.egg', b64: b64(egg) },
    { name: 'skin.png', path: 'assets/textures/skin.png', b64: b64(Buffer.from(PNG4, 'hex')) }]);
  const report = await embeddedReport(page, 1);
  assert.deepEqual(report.files, [want], 'the CLI\'s entry with --resources=assets');
  const items = await page.$$eval('#references-list li', (lis) => lis.map((li) => li.textContent));
  assert.match(items[0], /^\u2714 found \.\.\/textures\/skin\.png \u2192 assets\/textures\/skin\.png/);
  assert.match(items[1], /^\u26a0 found with another letter case textures\/Skin\.png \u2192 assets\/textures\/skin\.png/);
  assert.deepEqual(await page.$$eval('button.diag', (bs) => bs.map((b) => b.dataset.rule)), ['MDL-RES-003']);
  assert.deepEqual(page.errors, [], 'no page errors');
  await page.close();
});

browserTest('referenced files: a model opened by ?model= alone says they were not checked', { timeout: 120000 }, async () => {
  const page = await newPage();
  await page.goto(`${server.url}/dist/index.html?model=/gen/tex.egg`);
  const entry = (await embeddedReport(page, 1)).files[0];
  assert.equal(entry.resources, undefined, 'no resources list: nothing was looked up');
  assert.equal(entry.verdict, 'valid');
  assert.match(await page.$eval('#references-summary', (e) => e.textContent),
    /^Not checked: the model was opened by its address alone/);
  assert.equal(await page.$$eval('#references-list li', (l) => l.length), 0, 'no reference claimed found');
  assert.deepEqual(page.errors, [], 'no page errors');
  await page.close();
});
