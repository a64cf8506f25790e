// memory.test.mjs - issue 26 item 8 through the JS face: validate() over the WebAssembly build
// keeps a dense input within 3 x its (inflated) text + 64 MiB over a tiny file's baseline, and
// costs at most 3 bytes per added byte of text between two sizes (the slope: a fixed allowance
// cannot hide it). Each input is generated here and validated by a child node process, whose
// peak RSS (process.resourceUsage().maxRSS) is what is measured; load does not change it.
// The caller's own bytes: the child reads a plain file into a Buffer of its own (1 x the file),
// which validate() is handed and does not hold; that Buffer is the caller's and is subtracted
// (counted as 1 x the text). A .egg.pz's Buffer is its compressed size, not subtracted.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import zlib from 'node:zlib';

const dist = process.env.MDLCHECK_WEB_DIST;
const MIB = 1024 * 1024;

/* The child: validate one file, print its verdict and peak RSS in KiB. */
const child = `
import { readFileSync } from 'node:fs';
const m = await import(process.argv[1]);
const file = process.argv[2];
const bytes = readFileSync(file);
const r = await m.validate(bytes, { name: file.split('/').pop() });
console.log(JSON.stringify({ verdict: r.verdict, counts: r.counts, kib: process.resourceUsage().maxRSS }));
`;
const mjs = pathToFileURL(join(dist, 'mdlcheck.mjs')).href;

function peak(file) {
  const out = execFileSync(process.execPath, ['--input-type=module', '-e', child, mjs, file],
    { maxBuffer: 1 << 20 });
  return JSON.parse(out);
}

/* n lines of unit after head, as bytes */
const dense = (head, unit, n) => Buffer.from(head + unit.repeat(n));

/* KIND: text of the two sizes, written as given (plain) or deflated (pz); both within the bound
 * and the slope within 3. */
function check(t, dir, base, name, head, unit, n, pz) {
  const runs = [n, 2 * n].map((k, i) => {
    const text = dense(head, unit, k);
    const file = join(dir, `${name}-${i}${pz ? '.egg.pz' : name.startsWith('iqe') ? '.iqe' : '.egg'}`);
    writeFileSync(file, pz ? zlib.deflateSync(text, { level: 9 }) : text);
    const r = peak(file);
    rmSync(file);
    assert.equal(r.verdict, 'valid', `${name}: ${JSON.stringify(r)}`);
    const used = r.kib * 1024 - base - (pz ? 0 : text.length); /* the caller's Buffer: its own */
    const limit = 3 * text.length + 64 * MIB;
    t.diagnostic(`${name} ${(text.length / MIB).toFixed(1)} MiB of text: ${(used / MIB).toFixed(1)} MiB over the baseline`
      + `${pz ? '' : ' less the caller\'s bytes'} (${(used / text.length).toFixed(2)} x), limit ${(limit / MIB).toFixed(1)} MiB`);
    assert.ok(used <= limit, `${name}: ${(used / MIB).toFixed(1)} MiB over the baseline, more than 3 x the text + 64 MiB`);
    return { text: text.length, used };
  });
  const slope = (runs[1].used - runs[0].used) / (runs[1].text - runs[0].text);
  t.diagnostic(`${name}: slope ${slope.toFixed(2)} bytes per byte of text`);
  assert.ok(slope <= 3, `${name}: slope ${slope.toFixed(2)}, more than 3 bytes per byte of text`);
}

test('validate() keeps dense inputs within 3 x the text + 64 MiB, slope within 3', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'mdlcheck-mem-'));
  try {
    writeFileSync(join(dir, 'tiny.egg'), '<CoordinateSystem> { Z-up }\n');
    const base = peak(join(dir, 'tiny.egg')).kib * 1024;
    t.diagnostic(`baseline ${(base / MIB).toFixed(1)} MiB`);
    /* an entry of 16 bytes per 14-byte line: the tree's tables grow as the text is read (before:
     * 5.6 x the text at 28 MB, slope 3.5, each move of a table leaving its copy in the linear
     * memory, and the inflated text copied once more) */
    check(t, dir, base, 'egg-pz-groups', '', '<Group> a { }\n', 2000000, true);
    check(t, dir, base, 'egg-groups', '', '<Group> a { }\n', 2000000, false);
    check(t, dir, base, 'iqe-vp', '# Inter-Quake Export\n', 'vp 1 2 3\n', 2800000, false);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
