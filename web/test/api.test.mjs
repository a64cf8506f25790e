// api.test.mjs - the JS API of the WebAssembly build (web/API.md) against the native CLI: the
// same report entry, byte for byte as JSON, for every example and shared sample, under options,
// and for .egg.pz (inflated by the library's own inflater, stb_image's). Run by tests/web/api.sh (node --test).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import vm from 'node:vm';
import zlib from 'node:zlib';

const top = process.env.MDLCHECK_SRCDIR;
const dist = process.env.MDLCHECK_WEB_DIST;
const mdlcheck = process.env.MDLCHECK;
const samples = join(top, '..', 'shared', 'samples');

const esm = await import(pathToFileURL(join(dist, 'mdlcheck.mjs')).href);
const single = (() => {
  const context = vm.createContext({ console, TextEncoder, TextDecoder, DecompressionStream, WebAssembly, atob, URL });
  vm.runInContext(readFileSync(join(dist, 'mdlcheck.single.js'), 'utf8'), context);
  return context.mdlcheck;
})();

/* The CLI's JSON report (exit 1 for an invalid file is expected; anything else is not). */
function cli(args) {
  try {
    return JSON.parse(execFileSync(mdlcheck, ['-f', 'json', ...args], { maxBuffer: 1 << 28 }));
  } catch (e) {
    if (e.status !== 1 && e.status !== 3) throw e;
    return JSON.parse(e.stdout);
  }
}

/* An object from the vm context as one of ours (structuredClone keeps -0, JSON would not). */
const plain = (x) => structuredClone(x);

async function sameAsCli(api, paths) {
  const report = cli(paths);
  assert.ok(report.files.length > 0, 'the CLI selected files');
  for (const entry of report.files) {
    const got = await api.validate(readFileSync(entry.path), { name: entry.path });
    assert.deepEqual(plain(got), entry, entry.path);
  }
  return report.files.length;
}

test('every example: the entry the CLI reports, path included', async () => {
  assert.ok((await sameAsCli(esm, [join(top, 'examples')])) >= 8);
});

test('every shared sample: the entry the CLI reports', async (t) => {
  if (!existsSync(samples)) return t.skip(`no ${samples}`);
  assert.ok((await sameAsCli(esm, [samples])) > 0);
});

test('every model file in corpus/ (X42 legacy layouts included): the entry the CLI reports', async () => {
  assert.ok((await sameAsCli(esm, [join(top, 'corpus')])) > 300);
});

test('the single-file script (wasm embedded, no import): the same entries', async () => {
  assert.equal(typeof single.validate, 'function');
  await sameAsCli(single, [join(top, 'examples')]);
});

test('options map to the CLI options', async () => {
  const egg = join(top, 'examples', 'broken.egg'), iqm = join(top, 'examples', 'broken-parent.iqm');
  const cases = [
    [{ ignore: 'EGG-ENUM-*' }, ['--ignore=EGG-ENUM-*'], egg],
    [{ only: ['egg'] }, ['--only=egg'], egg],
    [{ severity: 'EGG-ENUM-005=hint' }, ['--severity=EGG-ENUM-005=hint'], egg],
    [{ severity: { 'EGG-ENUM-005': 'info' } }, ['--severity=EGG-ENUM-005=info'], egg],
    [{ failOn: 'fatal' }, ['--fail-on=fatal'], egg],
    [{ maxIssues: 1 }, ['--max-issues=1'], egg],
    [{ maxPerRule: 1 }, ['--max-per-rule=1'], iqm],
    [{ strict: true }, ['--strict'], iqm],
    [{ profile: 'panda' }, ['--profile=panda'], egg],
    [{ format: 'iqe' }, ['--assume-format=iqe'], egg],
    [{ maxInputSize: '1K' }, ['--max-input-size=1K'], iqm],
    [{ maxInputSize: 100000 }, ['--max-input-size=100000'], iqm],
    [{ maxMemory: '1K' }, ['--max-memory=1K'], egg], // past it: MDL-MEM-002, no verdict
    [{ maxMemory: 'none' }, ['--max-memory=none'], egg],
  ];
  for (const [opts, args, file] of cases) {
    const want = cli([...args, file]);
    const got = await esm.validate(readFileSync(file), { name: file, ...opts });
    assert.deepEqual(got, want.files[0], JSON.stringify(opts));
  }
});

/* Equal but for numbers computed through sin, cos, atan2 ...: the wasm build's libm (musl's)
 * and the CLI's (glibc's) may round those differently in the last bits. Returns the largest
 * difference relative to max(1, |expected|); -0 and 0 must still match. */
function closeTo(got, want, where) {
  if (typeof want === 'number') {
    assert.equal(typeof got, 'number', where);
    if (Object.is(got, want)) return 0;
    assert.notEqual(got === 0 && want === 0, true, `${where}: the sign of zero`);
    return Math.abs(got - want) / Math.max(1, Math.abs(want));
  }
  if (want === null || typeof want !== 'object') {
    assert.equal(got, want, where);
    return 0;
  }
  assert.deepEqual(Object.keys(got), Object.keys(want), where);
  let worst = 0;
  for (const k of Object.keys(want)) worst = Math.max(worst, closeTo(got[k], want[k], `${where}.${k}`));
  return worst;
}
const POSE_TOLERANCE = 1e-14; /* measured: 4e-16 (2 ulps) on the shared samples */

/* poses(): the CLI's `poses -f json` object, or, where the CLI refuses (exit non-zero), a
 * rejection with EDECODE (its diagnostics in the message) or EIO. */
async function posesSameAsCli(api, paths) {
  let compared = 0, refused = 0;
  for (const entry of cli(paths).files) {
    const bytes = readFileSync(entry.path);
    let want = null;
    try {
      want = JSON.parse(execFileSync(mdlcheck, ['poses', '-f', 'json', entry.path], { maxBuffer: 1 << 28, stdio: ['ignore', 'pipe', 'pipe'] }));
    } catch (e) {
      assert.ok(e.status === 1 || e.status === 3, `${entry.path}: poses exit ${e.status}`);
    }
    if (want) {
      const worst = closeTo(plain(await api.poses(bytes, { name: entry.path })), want, entry.path);
      assert.ok(worst <= POSE_TOLERANCE, `${entry.path}: numbers differ by ${worst}`);
      compared++;
    } else {
      await assert.rejects(api.poses(bytes, { name: entry.path }), (e) => ['EDECODE', 'EIO'].includes(e.code), entry.path);
      refused++;
    }
  }
  return [compared, refused];
}

test('poses() of every example and shared sample: the object `mdlcheck poses -f json` prints', async (t) => {
  const [compared, refused] = await posesSameAsCli(esm, [join(top, 'examples')]);
  assert.ok(compared >= 4 && refused >= 2, `${compared} compared, ${refused} refused`);
  if (existsSync(samples)) assert.ok((await posesSameAsCli(esm, [samples]))[0] > 0);
  else t.diagnostic(`no ${samples}`);
  await posesSameAsCli(single, [join(top, 'examples', 'walk.iqm')]);
});

/* model(): what the library decoded, for the page: the counts of the CLI's report, the joints of
 * `mdlcheck poses` (same decode), triangles inside the vertex table, and each diagnostic of the
 * report present with its position. */
test('model() of every example and shared sample: the CLI\'s counts and poses\' joints', async () => {
  const paths = [join(top, 'examples'), ...(existsSync(samples) ? [samples] : [])];
  let withGeometry = 0, withPoses = 0;
  for (const entry of cli(paths).files) {
    const m = await esm.model(readFileSync(entry.path), { name: entry.path });
    assert.equal(m.format, entry.format, entry.path);
    assert.equal(m.decoded, entry.stats !== undefined, `${entry.path}: decoded when the report has stats`);
    if (!m.decoded) continue;
    // where the report counts them (an Egg's validation does not build its geometry)
    if ('vertices' in entry.stats) assert.equal(m.num_vertexes, entry.stats.vertices, `${entry.path}: vertices`);
    if ('triangles' in entry.stats) assert.equal(m.num_triangles, entry.stats.triangles, `${entry.path}: triangles`);
    if ('joints' in entry.stats) assert.equal(m.joints.length, entry.stats.joints, `${entry.path}: joints`);
    assert.equal(m.positions.length, 3 * m.num_vertexes);
    assert.equal(m.triangles.length, 3 * m.num_triangles);
    assert.equal(m.blend_indexes.length, m.blend_size * m.num_vertexes);
    assert.ok(['y', 'z'].includes(m.up_axis));
    if (m.num_triangles) withGeometry++;
    for (const d of entry.messages.filter((x) => x.folded === undefined))
      assert.ok(m.diagnostics.some((x) => x.id === d.id && x.offset === d.offset && x.line === d.line &&
        x.column === d.column && x.path === (d.path ?? '')), `${entry.path}: ${d.id} located`);
    let want = null;
    try {
      want = JSON.parse(execFileSync(mdlcheck, ['poses', '-f', 'json', entry.path], { maxBuffer: 1 << 28, stdio: ['ignore', 'pipe', 'pipe'] }));
    } catch { /* a file with errors has no poses */ }
    if (want) {
      assert.ok(closeTo(plain(m.joints), want.joints, entry.path) <= POSE_TOLERANCE, `${entry.path}: joints as poses`);
      withPoses++;
    }
  }
  assert.ok(withGeometry >= 5 && withPoses >= 5, `${withGeometry} models with triangles, ${withPoses} with poses`);
});

test('model() points a diagnostic at its element: the library\'s locator', async () => {
  const at = async (name) => {
    const path = join(top, 'examples', name);
    const m = await esm.model(readFileSync(path), { name: path });
    return Object.fromEntries(m.diagnostics.map((d) => [d.id, d.element]));
  };
  assert.deepEqual(await at('broken-parent.iqm'), { 'IQM-JNT-002': { kind: 'joint', index: 1 },
    'IQM-POS-002': { kind: 'joint', index: 1 } });
  const iqe = await at('broken.iqe');
  assert.deepEqual(iqe['IQE-NUM-001'], { kind: 'vertex', index: 1 });
  assert.deepEqual(iqe['IQE-JNT-001'], { kind: 'joint', index: 1 });
  assert.deepEqual(iqe['IQE-FAC-001'], { kind: 'triangle', dropped: true });
  assert.equal((await at('broken.egg'))['EGG-ENUM-005'], null);
});

test('poses() of a broken file rejects with EDECODE and its diagnostics', async () => {
  const file = join(top, 'examples', 'broken-parent.iqm');
  await assert.rejects(esm.poses(readFileSync(file), { name: file }),
    (e) => e.code === 'EDECODE' && /IQM-JNT-002/.test(e.message));
});

test('poses() of an .egg.pz: the CLI\'s object', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'mdlcheck-web-'));
  try {
    const path = join(dir, 'dancer.egg.pz'), bytes = zlib.deflateSync(readFileSync(join(top, 'examples', 'dancer.egg')));
    writeFileSync(path, bytes);
    const want = JSON.parse(execFileSync(mdlcheck, ['poses', '-f', 'json', path]));
    assert.deepEqual(await esm.poses(bytes, { name: path }), want);
    assert.ok(want.joints.length > 0);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('a bad option rejects with EINVAL and says which', async () => {
  const bytes = readFileSync(join(top, 'examples', 'walk.iqm'));
  for (const [opts, words] of [
    [{ format: 'obj' }, /unknown format 'obj'/],
    [{ ignore: 'NOPE-*' }, /matches no catalogued rule/],
    [{ failOn: 'loud' }, /unknown severity/],
    [{ maxIssues: -1 }, /max_issues/],
    [{ fail_on: 'error' }, /unknown option 'fail_on'/],
    /* the typos the CLI refuses with exit 2: refused by the library's parser, not by the JS */
    [{ profile: 'pandaa' }, /unknown profile 'pandaa'/],
    [{ maxPerRule: '3x' }, /max_per_rule takes a count, not '3x'/],
    [{ strict: 'maybe' }, /strict takes true or false, not 'maybe'/],
    [{ noSuchOption: 1 }, /unknown option 'noSuchOption'/],
  ])
    await assert.rejects(esm.validate(bytes, opts), (e) => e.code === 'EINVAL' && words.test(e.message));
  await assert.rejects(esm.validate('not bytes'), (e) => e.code === 'EINVAL');
});

test('bytes as an ArrayBuffer; no name: the path is "-"', async () => {
  const bytes = readFileSync(join(top, 'examples', 'walk.iqm'));
  const buf = bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.length);
  const e = await esm.validate(buf);
  assert.equal(e.path, '-');
  assert.equal(e.verdict, 'valid');
  assert.equal(e.format, 'iqm');
});

test('rules() is the catalogue of `mdlcheck rules`; version() is the CLI version', async () => {
  const want = JSON.parse(execFileSync(mdlcheck, ['rules', '--format=json']));
  assert.deepEqual(await esm.rules(), want.rules);
  assert.deepEqual(plain(await single.rules()), want.rules);
  assert.equal(`mdlcheck ${esm.version()}`, execFileSync(mdlcheck, ['--version'], { encoding: 'utf8' }).trim());
  assert.equal(single.version(), esm.version());
});

test('.egg.pz: the CLI entry for zlib, gzip, trailing bytes, two members, over the bound', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'mdlcheck-web-'));
  try {
    const text = readFileSync(join(top, 'examples', 'dancer.egg'));
    const z = zlib.deflateSync(text), g = zlib.gzipSync(text);
    const cases = {
      'zlib.egg.pz': [z], 'gzip.egg.pz': [g], 'named.egg': [z],
      'trailing.egg.pz': [Buffer.concat([z, Buffer.from('junk')])],
      'two.egg.pz': [Buffer.concat([g, g])],
      'bound.egg.pz': [z, { maxInputSize: '1K' }, ['--max-input-size=1K']],
      'small.egg.pz': [z, { maxInputSize: 100 }, ['--max-input-size=100']],
    };
    for (const [name, [bytes, opts = {}, args = []]] of Object.entries(cases)) {
      const path = join(dir, name);
      writeFileSync(path, bytes);
      const want = cli([...args, path]).files[0];
      assert.deepEqual(await esm.validate(bytes, { name: path, ...opts }), want, name);
    }
    assert.equal(cli([join(dir, 'zlib.egg.pz')]).files[0].compression, 'zlib');
    assert.ok(cli([join(dir, 'trailing.egg.pz')]).files[0].messages.some((m) => m.id === 'EGG-LEX-013'));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('.egg.pz that does not inflate: the fatal EGG-LEX-011 as in the CLI (the inflater\'s words)', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'mdlcheck-web-'));
  try {
    const z = zlib.deflateSync(readFileSync(join(top, 'examples', 'dancer.egg')));
    for (const [name, bytes] of Object.entries({
      'truncated.egg.pz': z.subarray(0, z.length - 10),
      'corrupt.egg.pz': Buffer.concat([z.subarray(0, 20), Buffer.alloc(30, 0x55)]),
    })) {
      const path = join(dir, name);
      writeFileSync(path, bytes);
      const want = cli([path]).files[0], got = await esm.validate(bytes, { name: path });
      const ids = (e) => e.messages.map((m) => `${m.id} ${m.severity}`);
      assert.deepEqual(ids(got), ids(want), name);
      assert.deepEqual(ids(got), ['EGG-LEX-011 fatal']);
      assert.equal(got.verdict, 'invalid');
      assert.match(got.messages[0].message, /does not inflate/);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('the C library without zlib inflates an .egg.pz itself: the CLI\'s entry, no host help', async () => {
  const { default: createCore } = await import(pathToFileURL(join(dist, 'mdlcheck-core.mjs')).href);
  const M = await createCore({ wasmBinary: readFileSync(join(dist, 'mdlcheck-core.wasm')) });
  const dir = mkdtempSync(join(tmpdir(), 'mdlcheck-web-'));
  try {
    const bytes = zlib.deflateSync(readFileSync(join(top, 'examples', 'dancer.egg')));
    const path = join(dir, 'dancer.egg.pz');
    writeFileSync(path, bytes);
    const data = M._malloc(bytes.length), status = M._malloc(4), name = M._malloc(path.length * 3 + 1);
    M.HEAPU8.set(bytes, data);
    M.stringToUTF8(path, name, path.length * 3 + 1);
    const ptr = M._mdl_validate_buffer_json(data, bytes.length, name, 0, status, 0, 0);
    const entry = JSON.parse(M.UTF8ToString(ptr));
    M._mdl_string_free(ptr);
    assert.deepEqual(entry, cli([path]).files[0]);
    assert.equal(entry.compression, 'zlib');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
