// page-x42.test.mjs - the page's X42 display reader (web/page/src/model/x42.js) in node: the
// counts the validator gives, big-endian as little-endian, and bounded by the file's bytes
// whatever its counts say (it runs on the page's thread). Run by tests/web/api.sh (node --test).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { readX42 } from '../page/src/model/x42.js';
import { locate } from '../page/src/locate.js';

const top = process.env.MDLCHECK_SRCDIR || join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const mdlcheck = process.env.MDLCHECK || join(top, 'validator', 'mdlcheck');
const walker = () => Buffer.from(readFileSync(join(top, 'examples', 'walker.x42')));
const read = (b) => readX42(new Uint8Array(b.buffer, b.byteOffset, b.length));

test('walker.x42: the vertices, triangles and joints the validator counts', () => {
  const stats = JSON.parse(execFileSync(mdlcheck, ['-f', 'json', join(top, 'examples', 'walker.x42')])).files[0].stats;
  const m = read(walker());
  assert.equal(m.vertices.length, stats.vertices);
  assert.equal(m.triangles.length, stats.triangles);
  assert.equal(m.joints.length, stats.joints);
  assert.ok(m.triangles.flat().every((i) => i >= 0 && i < m.vertices.length));
});

test('a big-endian file reads as its little-endian twin', () => {
  const be = readFileSync(join(top, 'corpus', 'x42', 'base', 'anim-be.x42'));
  const le = readFileSync(join(top, 'corpus', 'x42', 'base', 'anim.x42'));
  const strip = (m) => JSON.stringify({ j: m.joints, v: m.vertices, t: m.triangles, i: m.influences });
  assert.equal(strip(read(be)), strip(read(le)));
});

// walker.x42's group 0 record is at byte 984 (after the LODs): maxVertInfluences 3 at +4,
// primType at +128, numVerts at +136, numElems at +144. The reader runs in a child process: a
// loop over four billion entries would block this one past any test timeout.
test('counts past the file: read as far as its bytes go, quickly', () => {
  const b = walker();
  assert.deepEqual([b.readUInt16LE(988), b.readUInt16LE(984 + 128), b.readUInt32LE(1120)], [3, 4, 8]);
  b.writeUInt32LE(0xffffffff, 1120); // numVerts: four billion blend entries
  b.writeUInt32LE(0xfffffff0, 984 + 144); // numElems
  b.writeUInt32LE(0xffffffff, 44); // header numIndices
  b.writeUInt32LE(0xffffffff, 40); // header numVerts
  const here = dirname(fileURLToPath(import.meta.url));
  const script = `import { readX42 } from ${JSON.stringify(join(here, '..', 'page', 'src', 'model', 'x42.js'))};
    import { locate } from ${JSON.stringify(join(here, '..', 'page', 'src', 'locate.js'))};
    const m = readX42(new Uint8Array(Buffer.from(process.argv[1], 'base64')));
    const hit = locate({ path: 'groups[0].blend[2].weight', offset: 0 }, m);
    console.log(JSON.stringify([m.vertices.length, m.triangles.length, hit.kind, hit.index]));`;
  const run = spawnSync(process.execPath, ['--input-type=module', '-e', script, b.toString('base64')],
    { encoding: 'utf8', timeout: 20000 });
  assert.equal(run.signal, null, 'the reader ends within 20 s');
  assert.equal(run.status, 0, run.stderr);
  const [vertices, triangles, kind, index] = JSON.parse(run.stdout);
  assert.ok(vertices < b.length && triangles < b.length);
  assert.deepEqual([kind, index], ['vertex', 2]);
});

test('X42 paths name the element: blend entries by vertex, indices by triangle', () => {
  const m = read(walker());
  const at = (path, offset) => { const h = locate({ path, offset }, m); return `${h.kind}:${h.index}`; };
  assert.equal(at('blendData[7]', 0), 'vertex:1'); // group 0 stores 5 bytes a vertex
  assert.equal(at('indices[5]', 0), 'triangle:1');
  assert.equal(at('keyStream[7].type', 0), 'joint:1');
  assert.equal(at('influences[2].bone', 0), 'joint:2');
  assert.equal(locate({ path: 'header.numVerts', offset: 40 }, m).kind, 'file');
});
