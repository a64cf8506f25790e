// index.js - picks the display reader for a validated file (by the validator's format name).
import { readIqm } from './iqm.js';
import { readIqe } from './iqe.js';
import { readEgg } from './egg.js';
import { readQmsh } from './qmsh.js';
import { readX42 } from './x42.js';

export const TEXT_FORMATS = new Set(['iqe', 'egg']);

// Returns the display model, or null for a format the page has no mesh reader for (the skeleton
// then comes from the validator's poses alone).
export function readModel(format, bytes, text) {
  try {
    if (format === 'iqm') return readIqm(bytes);
    if (format === 'iqe') return readIqe(text);
    if (format === 'egg') return readEgg(text);
    if (format === 'qmsh') return readQmsh(bytes);
    if (format === 'x42') return readX42(bytes);
  } catch (e) {
    return { error: String(e && e.message || e), joints: [], vertices: [], triangles: [] };
  }
  return null;
}
