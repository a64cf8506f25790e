// convert.test.mjs - convert() of the wasm module against `mdlcheck convert -f json`: every example
// to every format gives the CLI's report and the bytes it writes (or null where it writes none),
// accept_loss and the refusals as in the CLI. Run by tests/web/api.sh (node --test).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { extname, join } from 'node:path';
import { pathToFileURL } from 'node:url';

const top = process.env.MDLCHECK_SRCDIR;
const dist = process.env.MDLCHECK_WEB_DIST;
const mdlcheck = process.env.MDLCHECK;
const { convert } = await import(pathToFileURL(join(dist, 'mdlcheck.mjs')).href);
const TARGETS = ['iqm', 'iqe', 'egg', 'qmsh', 'x42'];

/* `mdlcheck convert -f json IN OUT` in dir: its report and the bytes it wrote to OUT (null: none) */
function cliConvert(dir, inName, outName, extra = []) {
  let out;
  try {
    out = execFileSync(mdlcheck, ['convert', '-f', 'json', '--no-config', ...extra, inName, outName],
      { cwd: dir, maxBuffer: 1 << 26, stdio: ['ignore', 'pipe', 'pipe'] });
  } catch (e) {
    if (e.status !== 1) throw e;
    out = e.stdout;
  }
  const written = join(dir, outName);
  return { report: JSON.parse(out), bytes: existsSync(written) ? readFileSync(written) : null };
}

/* The bytes the CLI wrote: exactly, or for the text formats number for number within 1e-7
 * relative, below a float's precision: the wasm build's libm (musl's) rounds sin, cos, atan2
 * otherwise than the CLI's (glibc's), so an Egg's HPR angles may differ in their last digit
 * (walk.iqm: 1 ulp of a double), and a value that is exactly a float on one side and not on the
 * other is written with a float's 8 digits on one side and 17 on the other (walker.x42: 3.7e-9). */
const NUMBER_TOLERANCE = 1e-7;
function sameBytes(got, want, where) {
  if (got === null || want === null) return assert.equal(got, want, where);
  const a = Buffer.from(got), b = Buffer.from(want);
  if (a.equals(b)) return;
  const ta = a.toString('latin1').split(/(\s+)/), tb = b.toString('latin1').split(/(\s+)/);
  assert.equal(ta.length, tb.length, `${where}: the texts differ`);
  ta.forEach((t, i) => {
    if (t === tb[i]) return;
    const x = Number(t), y = Number(tb[i]);
    assert.ok(t.trim() && Number.isFinite(x) && Number.isFinite(y) &&
      Math.abs(x - y) <= NUMBER_TOLERANCE * Math.max(1, Math.abs(y)), `${where}: '${t}' for '${tb[i]}'`);
  });
}

test('convert(): every example to every format, the report and bytes of `mdlcheck convert`', async () => {
  const examples = join(top, 'examples');
  const outcomes = new Set();
  for (const f of readdirSync(examples).filter((n) => n !== 'README.md').sort()) {
    const source = readFileSync(join(examples, f));
    for (const to of TARGETS) {
      const dir = mkdtempSync(join(tmpdir(), 'mdl-convert-'));
      try {
        // named m.EXT, reported as the CLI's m.EXT -> m.TO; its bytes from a conversion to
        // another name (the CLI rewrites m.EXT in place when the formats are the same)
        copyFileSync(join(examples, f), join(dir, `in${extname(f)}`));
        const written = cliConvert(dir, `in${extname(f)}`, `out.${to}`).bytes;
        copyFileSync(join(examples, f), join(dir, `m${extname(f)}`));
        const want = cliConvert(dir, `m${extname(f)}`, `m.${to}`).report;
        const got = await convert(source, { to, name: `m${extname(f)}` });
        assert.deepEqual(got.report, want, `${f} -> ${to}`);
        sameBytes(got.bytes, written, `${f} -> ${to}: bytes`);
        outcomes.add(got.report.files.map((e) => e.verdict).join('/') + (got.bytes ? ' bytes' : ' none'));
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    }
  }
  // converted, differing (written, to be inspected), refused, and a source with errors (no
  // output entry): each seen
  assert.deepEqual([...outcomes].sort(), ['invalid none', 'valid/invalid bytes', 'valid/invalid none',
    'valid/valid bytes']);
});

test('convert(): acceptLoss as --accept-loss; a bad option or target rejects with EINVAL', async () => {
  const walk = join(top, 'examples', 'walk.iqm');
  const dir = mkdtempSync(join(tmpdir(), 'mdl-convert-'));
  try {
    copyFileSync(walk, join(dir, 'walk.iqm'));
    const want = cliConvert(dir, 'walk.iqm', 'walk.egg', ['--accept-loss=MDL-CNV-002']);
    const got = await convert(readFileSync(walk), { to: 'egg', name: 'walk.iqm', acceptLoss: ['MDL-CNV-002'] });
    assert.deepEqual(got.report, want.report);
    sameBytes(got.bytes, want.bytes, 'walk.iqm -> egg');
    assert.deepEqual(got.report.files.map((e) => e.verdict), ['valid', 'valid']);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  const bytes = readFileSync(walk);
  await assert.rejects(convert(bytes, {}), { code: 'EINVAL' });
  await assert.rejects(convert(bytes, { to: 'obj' }), { code: 'EINVAL', message: /unknown format 'obj'/ });
  await assert.rejects(convert(bytes, { to: 'egg', acceptLos: 'x' }), { code: 'EINVAL' });
  await assert.rejects(convert(bytes, { to: 'egg', resources: {} }), { code: 'EINVAL' });
  await assert.rejects(convert(bytes, { to: 'egg', failOn: 'nope' }), { code: 'EINVAL' });
});
