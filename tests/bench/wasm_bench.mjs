// wasm_bench.mjs - make bench: the WebAssembly module's validate() on the bench files, in node.
// Usage: node wasm_bench.mjs DIST RUNS FILE...; prints "FILE cpu_s wall_s verdict" per file: the
// medians of RUNS timed calls after one warm-up. CPU is the process's user + system time across
// the call (node's own helper threads included), the measure bench.sh uses for the native CLI.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

const [dist, runs, ...files] = process.argv.slice(2);
const { validate } = await import(pathToFileURL(join(dist, 'mdlcheck.mjs')).href);
const median = (v) => v.slice().sort((a, b) => a - b)[(v.length - 1) >> 1];

for (const file of files) {
  const bytes = readFileSync(file);
  let entry = await validate(bytes, { name: file });
  const cpu = [], wall = [];
  for (let i = 0; i < Number(runs); i++) {
    const c0 = process.cpuUsage(), w0 = performance.now();
    entry = await validate(bytes, { name: file });
    const c = process.cpuUsage(c0);
    wall.push((performance.now() - w0) / 1000);
    cpu.push((c.user + c.system) / 1e6);
  }
  const counts = Object.entries(entry.counts).map(([k, v]) => `${k}:${v}`).join(',');
  console.log(`${file} ${median(cpu).toFixed(6)} ${median(wall).toFixed(6)} ${entry.verdict}(${counts})`);
}
