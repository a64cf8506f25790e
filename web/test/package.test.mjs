// package.test.mjs - the npm package of web/: its TypeScript declarations name exactly the
// module's exports (and its default object's functions), `npm pack` ships the library and its
// declarations and nothing else (the page is its own artefact, web/site), and compare() answers
// what `mdlcheck compare -f json` does. Run by tests/web/api.sh (node --test).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { copyFileSync, cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import vm from 'node:vm';
import zlib from 'node:zlib';

const top = process.env.MDLCHECK_SRCDIR;
const dist = process.env.MDLCHECK_WEB_DIST;
const mdlcheck = process.env.MDLCHECK;

const esm = await import(pathToFileURL(join(dist, 'mdlcheck.mjs')).href);
const pkg = JSON.parse(readFileSync(join(top, 'web', 'package.json'), 'utf8'));

/* the names a .d.ts declares: `export function NAME`, `export const NAME` */
const declared = (text) => [...text.matchAll(/^export (?:declare )?(?:function|const) (\w+)/gm)].map((m) => m[1]).sort();

test('the declarations name every export of mdlcheck.mjs, and nothing else', () => {
  const dts = readFileSync(join(dist, 'mdlcheck.d.ts'), 'utf8');
  const exported = Object.keys(esm).filter((k) => k !== 'default').sort();
  assert.ok(exported.length >= 5, `exports: ${exported}`);
  assert.deepEqual(declared(dts), exported);
  // the default export: an object of the same functions, declared member for member
  const members = dts.match(/declare const mdlcheck: \{([^}]*)\}/);
  assert.ok(members, 'mdlcheck.d.ts declares the default object');
  const names = [...members[1].matchAll(/(\w+): typeof (\w+);/g)].map((m) => { assert.equal(m[1], m[2]); return m[1]; });
  assert.deepEqual(names.sort(), Object.keys(esm.default).sort());
  assert.match(dts, /^export default mdlcheck;$/m);
  for (const name of exported) assert.equal(typeof esm[name], 'function', name);
});

test('mdlcheck.single.js defines globalThis.mdlcheck as its declarations say', () => {
  const context = vm.createContext({ console, TextEncoder, TextDecoder, DecompressionStream, WebAssembly, atob, URL });
  vm.runInContext(readFileSync(join(dist, 'mdlcheck.single.js'), 'utf8'), context);
  assert.deepEqual(Object.keys(context.mdlcheck).sort(), Object.keys(esm.default).sort());
  const dts = readFileSync(join(dist, 'mdlcheck.single.d.ts'), 'utf8');
  assert.match(dts, /var mdlcheck: typeof api;/);
  assert.match(dts, /import type api from '\.\/mdlcheck\.js';/);
});

test('package.json points its exports and types at files it ships', () => {
  assert.equal(pkg.types, 'dist/mdlcheck.d.ts');
  assert.equal(pkg.exports['.'].types, './dist/mdlcheck.d.ts');
  assert.equal(pkg.exports['.'].default, './dist/mdlcheck.mjs');
  assert.equal(pkg.exports['./single'].types, './dist/mdlcheck.single.d.ts');
  for (const target of [pkg.main, pkg.types, ...Object.values(pkg.exports).flatMap((e) => Object.values(e))])
    assert.ok(pkg.files.includes(target.replace(/^\.\//, '')), `${target} is not in "files"`);
});

test('npm pack: the library, its declarations and API.md, not the page', (t) => {
  try {
    execFileSync('npm', ['--version'], { stdio: 'ignore' });
  } catch {
    return t.skip('no npm');
  }
  // a package folder as web/ is after make web, with a page and a stray file beside the library
  const dir = mkdtempSync(join(tmpdir(), 'mdl-pack-'));
  try {
    copyFileSync(join(top, 'web', 'package.json'), join(dir, 'package.json'));
    copyFileSync(join(top, 'web', 'API.md'), join(dir, 'API.md'));
    cpSync(dist, join(dir, 'dist'), { recursive: true });
    writeFileSync(join(dir, 'dist', 'index.html'), '<!doctype html>');
    cpSync(join(top, 'web', 'test'), join(dir, 'test'), { recursive: true });
    const out = execFileSync('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'],
      { cwd: dir, env: { ...process.env, npm_config_loglevel: 'error', npm_config_offline: 'true' } });
    const files = JSON.parse(out)[0].files.map((f) => f.path).sort();
    assert.deepEqual(files, ['API.md', 'dist/mdlcheck-core.mjs', 'dist/mdlcheck-core.wasm',
      'dist/mdlcheck.d.ts', 'dist/mdlcheck.mjs', 'dist/mdlcheck.single.d.ts',
      'dist/mdlcheck.single.js', 'package.json'].sort());
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

/* `mdlcheck compare -f json A B` (exit 1: they differ) */
function cliCompare(a, b) {
  try {
    return JSON.parse(execFileSync(mdlcheck, ['compare', '-f', 'json', a, b], { maxBuffer: 1 << 26 }));
  } catch (e) {
    if (e.status !== 1) throw e;
    return JSON.parse(e.stdout);
  }
}

test('compare(): the report `mdlcheck compare -f json` prints', async () => {
  const examples = join(top, 'examples');
  const pairs = [['walk.iqm', 'walk.iqm'], ['walk.iqm', 'broken-parent.iqm']];
  const verdicts = [];
  for (const [a, b] of pairs) {
    const pa = join(examples, a), pb = join(examples, b);
    const got = await esm.compare(readFileSync(pa), readFileSync(pb), { aName: pa, bName: pb });
    assert.deepEqual(got, cliCompare(pa, pb), `${a} vs ${b}`);
    verdicts.push(got.files[0].verdict);
  }
  assert.deepEqual(verdicts, ['valid', 'invalid']);
  await assert.rejects(esm.compare(new Uint8Array(4), new Uint8Array(4), { name: 'x' }), { code: 'EINVAL' });
  // an .egg.pz is inflated by the library, as in the CLI: the report `compare` prints for it
  const dir = mkdtempSync(join(tmpdir(), 'mdlcheck-web-'));
  try {
    const egg = join(examples, 'dancer.egg'), pz = join(dir, 'dancer.egg.pz');
    writeFileSync(pz, zlib.gzipSync(readFileSync(egg)));
    const got = await esm.compare(readFileSync(pz), readFileSync(egg), { aName: pz, bName: egg });
    assert.deepEqual(got, cliCompare(pz, egg), 'dancer.egg.pz vs dancer.egg');
    assert.equal(got.files[0].verdict, 'valid');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  await assert.rejects(esm.compare(new Uint8Array(4), new Uint8Array(4), { failOn: 'nope' }), { code: 'EINVAL' });
});
