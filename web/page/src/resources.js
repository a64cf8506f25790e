// resources.js - files dropped together taken as one tree, as the CLI takes a folder with
// --resources: which of them are models to validate, which only files the models may name, and
// where each model's references are searched (validate()'s resources option, web/API.md).

// Whether a name is one the CLI selects when it walks a folder: it ends with one of the
// extensions the library's formats describe (formats(): their registry).
export function modelNamer(formats) {
  const exts = formats.flatMap((f) => f.extensions).map((e) => e.toLowerCase());
  return (name) => exts.some((e) => name.toLowerCase().endsWith(e));
}

// The deepest folder holding every name ('' when they do not share one): a dropped folder, or
// the folder the page's chosen files came from.
export function treeRoot(names) {
  let common = null;
  for (const name of names) {
    const dirs = name.split('/').slice(0, -1);
    if (common === null) { common = dirs; continue; }
    let k = 0;
    while (k < common.length && k < dirs.length && common[k] === dirs[k]) k++;
    common = common.slice(0, k);
  }
  return (common || []).join('/');
}

// What a drop is: { models, root }. The files named like models are validated and every file is
// a possible reference; a drop without such a name is validated file by file as before (the CLI
// validates a file named directly whatever its extension).
export function dropPlan(names, isModel) {
  const models = names.filter(isModel);
  return { models: models.length ? models : names, root: treeRoot(names) };
}

// The folders searched after the model's own: the tree's root, unless it is that folder (the
// CLI's --resources=ROOT, so that a model in models/ finds textures/ beside it with ../textures).
export function searchDirs(name, root) {
  const folder = name.includes('/') ? name.slice(0, name.lastIndexOf('/')) : '';
  return folder === root ? [] : [root || '.'];
}

// The text report's line for the references that led to no usable file ("found" and
// "case-mismatch" are usable: the file is there on this system), or null when all did.
export function unusableLine(entry) {
  const res = entry.resources || [];
  const bad = res.filter((r) => r.status !== 'found' && r.status !== 'case-mismatch');
  if (!bad.length) return null;
  const shown = bad.slice(0, 8).map((r) => `${r.ref} (${r.status})`).join(', ');
  return `${bad.length} of ${res.length} referenced file${res.length === 1 ? '' : 's'} not usable: ${shown}${bad.length > 8 ? ', ...' : ''}`;
}
