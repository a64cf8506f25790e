// fix.test.mjs - fix() of the wasm module against `mdlcheck fix -f json IN`: a misaligned IQM
// (IQM-SEC-002) gives the CLI's report and the bytes it writes in place; a refused file gives
// its report and no bytes; a clean file its own bytes. Run by tests/web/api.sh (node --test).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

const top = process.env.MDLCHECK_SRCDIR;
const dist = process.env.MDLCHECK_WEB_DIST;
const mdlcheck = process.env.MDLCHECK;
const { fix } = await import(pathToFileURL(join(dist, 'mdlcheck.mjs')).href);

/* `mdlcheck fix -f json NAME` in place in a fresh folder: its report and the file afterwards */
function cliFix(name, bytes) {
  const dir = mkdtempSync(join(tmpdir(), 'mdl-fix-'));
  try {
    writeFileSync(join(dir, name), bytes);
    let out;
    try {
      out = execFileSync(mdlcheck, ['fix', '-f', 'json', '--no-config', name],
        { cwd: dir, maxBuffer: 1 << 26, stdio: ['ignore', 'pipe', 'pipe'] });
    } catch (e) {
      if (e.status !== 1) throw e;
      out = e.stdout;
    }
    return { report: JSON.parse(out), bytes: readFileSync(join(dir, name)) };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

function misaligned() {
  const b = Buffer.from(readFileSync(join(top, 'corpus', 'iqm', 'base', 'anim.iqm')));
  b.writeUInt32LE(1633, 112); // ofs_comment: IQM-SEC-002
  b.writeUInt32LE(27, 108);
  return b;
}

test('fix(): a misaligned IQM repaired as `mdlcheck fix` repairs it', async () => {
  const source = misaligned();
  const want = cliFix('m.iqm', source);
  const got = await fix(source, { name: 'm.iqm' });
  assert.deepEqual(got.report, want.report);
  assert.deepEqual(got.report.files[0].messages.map((m) => m.id), ['IQM-SEC-002', 'MDL-FIX-003']);
  assert.ok(Buffer.from(got.bytes).equals(want.bytes));
  assert.ok(!Buffer.from(got.bytes).equals(source));
});

test('fix(): a refusal has no bytes; a clean file gives its own', async () => {
  const broken = readFileSync(join(top, 'examples', 'broken-parent.iqm'));
  const refused = await fix(broken, { name: 'b.iqm' });
  assert.equal(refused.bytes, null);
  assert.deepEqual(refused.report, cliFix('b.iqm', broken).report);
  assert.ok(refused.report.files[1].messages.some((m) => m.id === 'MDL-FIX-001'));
  const walk = readFileSync(join(top, 'examples', 'walk.iqm'));
  const clean = await fix(walk, { name: 'walk.iqm' });
  assert.ok(Buffer.from(clean.bytes).equals(walk));
  await assert.rejects(fix(walk, { name: 'walk.iqm', to: 'iqe' }), (e) => e.code === 'EINVAL'); // no target: IN's own format
});
