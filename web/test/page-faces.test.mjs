// page-faces.test.mjs - the page is a face: no source file of it (web/page/src) names a format,
// one of its extensions, or a fact of one (its up axis); what it draws and where a diagnostic
// points come from the library (model(), formats()). Run by tests/web/api.sh (node --test).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const top = process.env.MDLCHECK_SRCDIR || join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const src = join(top, 'web', 'page', 'src');

test('no page source names a format or one of its extensions', async (t) => {
  if (!process.env.MDLCHECK_WEB_DIST) return t.skip('the module is not built');
  const { formats } = await import(pathToFileURL(join(process.env.MDLCHECK_WEB_DIST, 'mdlcheck.mjs')).href);
  const known = await formats();
  assert.ok(known.length >= 5, 'the registry describes the formats');
  const words = new Set(known.flatMap((f) => [f.name, ...f.extensions.flatMap((e) => e.split('.').filter(Boolean))]));
  const files = readdirSync(src, { recursive: true }).filter((n) => n.endsWith('.js'));
  assert.ok(files.includes('main.js') && files.includes('viewer.js'));
  for (const name of files) {
    const text = readFileSync(join(src, name), 'utf8');
    for (const w of words) {
      assert.doesNotMatch(text, new RegExp(`\\b${w}\\b`, 'i'), `web/page/src/${name} names '${w}'`);
    }
  }
});
