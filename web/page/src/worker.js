// worker.js - runs the WebAssembly validator off the page's thread: one message per file in,
// progress messages and one result out (the report, the poses and the decoded model, all from
// the library), so a large file never freezes the page. A model dropped
// with other files is validated with them as its referenced files (poses need none).
import { validate, poses, model, formats, version } from 'mdlcheck';

// Files dropped together, by group id: sent once with the first model of the group that needs
// them, kept for the group's other models and for validating them again under new options.
const groups = new Map();

self.onmessage = async (event) => {
  const { id, name, bytes, opts, group } = event.data;
  const post = (msg) => self.postMessage({ id, ...msg });
  if (event.data.type === 'formats') {
    try {
      post({ type: 'done', formats: await formats() });
    } catch (err) {
      post({ type: 'error', message: String((err && err.message) || err) });
    }
    return;
  }
  try {
    const input = new Uint8Array(bytes);
    if (group && group.files) groups.set(group.id, group.files);
    const resources = group ? { files: groups.get(group.id), dirs: group.dirs } : undefined;
    if (group && !resources.files) throw new Error('the files dropped with it are gone');
    post({ type: 'progress', stage: 'validating', fraction: 0.2 });
    const report = await validate(input, { ...opts, name, resources });
    post({ type: 'progress', stage: 'reading the skeleton and animations', fraction: 0.7 });
    let skeleton = null;
    let posesError = null;
    try {
      // under the same options as the report: what decodes cleanly depends on them (a profile,
      // an ignored rule), as for `mdlcheck poses`
      skeleton = await poses(input, { ...opts, name });
    } catch (err) {
      // a file that does not decode cleanly has no trustworthy poses; its diagnostics are already
      // in the report, so the note says only that (EDECODE's message repeats the whole report)
      posesError = err && err.code === 'EDECODE'
        ? 'the file has errors, so the validator gives no poses for it (see the report)'
        : String((err && err.message) || err);
    }
    post({ type: 'progress', stage: 'reading the model', fraction: 0.85 });
    let decoded = null;
    let modelError = null;
    try {
      // what the library decoded, where each element is and what each diagnostic points at
      decoded = await model(input, { ...opts, name });
    } catch (err) {
      modelError = String((err && err.message) || err);
    }
    post({ type: 'done', report, poses: skeleton, posesError, model: decoded, modelError, version: await version() });
  } catch (err) {
    post({ type: 'error', message: String((err && err.message) || err) });
  }
};
