// server.mjs - a static file server on loopback for the browser tests: each URL prefix maps to
// one folder; nothing outside them is served.
import { createServer } from 'node:http';
import { readFile } from 'node:fs/promises';
import { join, normalize } from 'node:path';

const TYPES = { '.html': 'text/html; charset=utf-8', '.js': 'text/javascript', '.mjs': 'text/javascript',
  '.wasm': 'application/wasm', '.json': 'application/json' };

// roots: { '/dist/': '/abs/dir', ... }; resolves with { url, close }.
export function serve(roots) {
  const server = createServer(async (req, res) => {
    const path = decodeURIComponent(new URL(req.url, 'http://x').pathname);
    const prefix = Object.keys(roots).find((p) => path.startsWith(p));
    const rel = prefix ? normalize(path.slice(prefix.length)) : '';
    if (!prefix || rel.startsWith('..')) { res.writeHead(404).end(); return; }
    try {
      const body = await readFile(join(roots[prefix], rel));
      const ext = (rel.match(/\.[a-z]+$/) || [''])[0];
      res.writeHead(200, { 'content-type': TYPES[ext] || 'application/octet-stream', 'content-length': body.length });
      res.end(body);
    } catch {
      res.writeHead(404).end();
    }
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve({
    url: `http://127.0.0.1:${server.address().port}`,
    close: () => new Promise((r) => server.close(r)),
  })));
}
