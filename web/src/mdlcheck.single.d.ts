// mdlcheck.single.d.ts - TypeScript declarations of web/dist/mdlcheck.single.js, the classic
// script that defines globalThis.mdlcheck (the same functions as mdlcheck.mjs).
import type api from './mdlcheck.js';

declare global {
  // eslint-disable-next-line no-var
  var mdlcheck: typeof api;
}
export {};
