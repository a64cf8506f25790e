/* classic.js - the end of web/dist/mdlcheck.single.js (after emscripten's glue with the wasm
 * embedded, and api.js): one classic script, no import, for pages opened from file:// and for
 * workers started from a Blob URL. */
globalThis.mdlcheck = mdlcheckApi(() => MdlcheckCore());
