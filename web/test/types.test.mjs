// types.test.mjs - the TypeScript declarations the npm package ships (dist/*.d.ts) checked by a
// real compiler: web/types/usage.ts uses every export as web/API.md says (it must compile under
// --strict) and misuses some (each marked @ts-expect-error: the declarations must refuse it).
// tsc comes from web/types (npm ci --prefix web/types); without it this test skips, except in CI.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const top = process.env.MDLCHECK_SRCDIR;
const dist = process.env.MDLCHECK_WEB_DIST;
const tsc = join(top, 'web', 'types', 'node_modules', 'typescript', 'bin', 'tsc');

function check(usage) {
  const dir = mkdtempSync(join(tmpdir(), 'mdl-types-'));
  try {
    for (const f of ['mdlcheck.d.ts', 'mdlcheck.single.d.ts']) copyFileSync(join(dist, f), join(dir, f));
    copyFileSync(join(top, 'web', 'types', 'tsconfig.json'), join(dir, 'tsconfig.json'));
    writeFileSync(join(dir, 'package.json'), '{ "type": "module" }\n');
    writeFileSync(join(dir, 'usage.ts'), usage);
    execFileSync(process.execPath, [tsc, '-p', dir], { stdio: 'pipe' });
    return '';
  } catch (e) {
    return String(e.stdout || e.message);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

test('tsc --strict accepts the documented uses and refuses the misuses', (t) => {
  if (!existsSync(tsc)) {
    if (process.env.CI) assert.fail(`no ${tsc}: npm ci --prefix web/types`);
    return t.skip('no TypeScript compiler (npm ci --prefix web/types)');
  }
  const usage = readFileSync(join(top, 'web', 'types', 'usage.ts'), 'utf8');
  assert.equal(check(usage), '');
  // the check can fail: a misuse left unmarked is an error, and so is a marked use that compiles
  assert.match(check(usage.replace("// @ts-expect-error a target is a format's name, not a number (the names are the registry's)\n", '')),
    /usage\.ts.*error TS2322.*number/s);
  assert.match(check(usage + "// @ts-expect-error\nexport const fine: string = 'x';\n"), /error TS2578/);
});
