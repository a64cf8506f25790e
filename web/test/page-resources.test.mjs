// page-resources.test.mjs - how the page takes files dropped together (web/page/src/resources.js)
// in node: which are models, the tree's search root and each model's search folders, and the
// line naming unusable references, which must be the CLI's text report line. Run by
// tests/web/api.sh (node --test).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { dropPlan, searchDirs, treeRoot, unusableLine, modelNamer } from '../page/src/resources.js';

const top = process.env.MDLCHECK_SRCDIR || join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const mdlcheck = process.env.MDLCHECK || join(top, 'validator', 'mdlcheck');

test('a drop: the model-named files (by the library\'s formats) are validated, every file may be named; none: each validated', async (t) => {
  if (!process.env.MDLCHECK_WEB_DIST) return t.skip('the module is not built');
  const { formats } = await import(pathToFileURL(join(process.env.MDLCHECK_WEB_DIST, 'mdlcheck.mjs')).href);
  const isModel = modelNamer(await formats());
  assert.deepEqual(dropPlan(['a.egg', 'skin.png', 'b.IQM', 'c.egg.pz', 'd.x42', 'e.qmsh', 'f.iqe'], isModel),
    { models: ['a.egg', 'b.IQM', 'c.egg.pz', 'd.x42', 'e.qmsh', 'f.iqe'], root: '' });
  assert.deepEqual(dropPlan(['model.bin', 'notes.txt'], isModel), { models: ['model.bin', 'notes.txt'], root: '' });
});

test('the search root: the deepest folder holding every dropped file', () => {
  assert.equal(treeRoot(['assets/models/m.egg', 'assets/textures/s.png']), 'assets');
  assert.equal(treeRoot(['assets/models/m.egg', 'assets/models/s.png']), 'assets/models');
  assert.equal(treeRoot(['a/m.egg', 'b/s.png']), '');
  assert.equal(treeRoot(['m.egg', 'assets/s.png']), '');
  assert.equal(treeRoot(['ab/m.egg', 'abc/s.png']), '', 'folders compared whole, not by prefix');
  assert.equal(treeRoot([]), '');
});

test('each model searches its folder, then the root unless it is that folder', () => {
  assert.deepEqual(searchDirs('m.egg', ''), []);
  assert.deepEqual(searchDirs('assets/m.egg', 'assets'), []);
  assert.deepEqual(searchDirs('assets/models/m.egg', 'assets'), ['assets']);
  assert.deepEqual(searchDirs('a/m.egg', ''), ['.']);
});

test('the unusable references: the line the CLI\'s text report prints', () => {
  const dir = mkdtempSync(join(tmpdir(), 'mdlcheck-page-res-'));
  try {
    const refs = ['maps/a.png', '../x.png', 'bad.png', 'ok.png', 'Case.png',
      ...Array.from({ length: 9 }, (_, i) => `gone${i}.png`)];
    writeFileSync(join(dir, 'm.egg'), `<CoordinateSystem> { Z-up }\n${refs.map((r, i) => `<Texture> t${i} { "${r}" }\n`).join('')}`);
    mkdirSync(join(dir, 'maps'));
    writeFileSync(join(dir, 'bad.png'), 'not an image');
    const png = Buffer.from('89504e470d0a1a0a0000000d494844520000000400000004080600000000000000', 'hex');
    writeFileSync(join(dir, 'ok.png'), png);
    writeFileSync(join(dir, 'case.png'), png);
    const run = (fmt) => {
      try {
        return execFileSync(mdlcheck, ['-f', fmt, '--resources', 'm.egg'], { cwd: dir, encoding: 'utf8' });
      } catch (e) {
        return e.stdout;
      }
    };
    const entry = JSON.parse(run('json')).files[0];
    const line = run('text').split('\n').find((l) => l.includes('referenced file'));
    assert.ok(line, 'the CLI prints the line');
    assert.equal(`m.egg: ${unusableLine(entry)}`, line);
    assert.match(line, /, \.\.\.$/, 'more than eight: cut as the CLI cuts');
    assert.equal(unusableLine({ resources: entry.resources.filter((r) => ['found', 'case-mismatch'].includes(r.status)) }), null);
    assert.equal(unusableLine({}), null);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
