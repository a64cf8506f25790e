// mdlcheck-global.js - the API as mdlcheck.single.js defines it (globalThis.mdlcheck, web/API.md);
// build.mjs puts that script in front of the worker's code.
export const { validate, poses, model, formats, rules, version } = globalThis.mdlcheck;
