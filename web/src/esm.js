/* esm.js - the end of web/dist/mdlcheck.mjs (after api.js): emscripten's module beside it, the
 * wasm read with fs under node (node cannot fetch a file path), fetched beside the module elsewhere. */
import MdlcheckCore from './mdlcheck-core.mjs';

async function createCore() {
  const url = new URL('./mdlcheck-core.wasm', import.meta.url);
  if (typeof process === 'object' && process.versions && process.versions.node) {
    const { readFile } = await import('node:fs/promises');
    return MdlcheckCore({ wasmBinary: await readFile(url) });
  }
  return MdlcheckCore({ locateFile: () => url.href });
}

const api = mdlcheckApi(createCore);
export const { validate, poses, model, compare, convert, fix, rules, formats, version } = api;
export default api;
