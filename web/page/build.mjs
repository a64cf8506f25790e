// build.mjs - assembles web/site/index.html: one file that opens from file:// (Chromium refuses
// module imports, wasm fetches and module workers there), so the worker (mdlcheck.single.js, the
// validator with its wasm embedded, then src/worker.js) is a string started from a Blob URL, and
// the page's script, three.js and the style are inlined.
// Usage: node build.mjs --single web/dist/mdlcheck.single.js --out web/site
import { build } from 'esbuild';
import { readFileSync, writeFileSync, mkdirSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const arg = (name) => {
  const i = process.argv.indexOf(name);
  if (i < 0 || !process.argv[i + 1]) {
    console.error(`build.mjs: ${name} is required`);
    process.exit(2);
  }
  return process.argv[i + 1];
};
const singlePath = resolve(arg('--single'));
const outDir = resolve(arg('--out'));

async function bundle(entry, options = {}) {
  const result = await build({ entryPoints: [join(here, 'src', entry)], bundle: true, write: false,
    format: 'iife', target: 'es2020', minify: true, legalComments: 'none', logLevel: 'warning', ...options });
  return result.outputFiles[0].text;
}

const worker = `${readFileSync(singlePath, 'utf8')}\n${await bundle('worker.js',
  { alias: { mdlcheck: join(here, 'src', 'mdlcheck-global.js') } })}`;
const main = await bundle('main.js', { define: { __WORKER_SOURCE__: JSON.stringify(worker) } });
// Inline text must not close its element early.
const safeScript = main.replace(/<\/(script)/gi, '<\\/$1').replace(/<!--/g, '<\\!--');
const html = readFileSync(join(here, 'index.html'), 'utf8')
  .replace(/^<!-- index\.html.*-->\n/m, '')
  .replace('/*STYLE*/', () => readFileSync(join(here, 'style.css'), 'utf8').replace(/^\/\*.*\*\/\n/, ''))
  .replace('/*SCRIPT*/', () => safeScript);
mkdirSync(outDir, { recursive: true });
writeFileSync(join(outDir, 'index.html'), html);
console.log(`build.mjs: ${join(outDir, 'index.html')} (${(html.length / 1024).toFixed(0)} KiB)`);
