// main.js - the mdlcheck page: takes files (drop, picker, folder, ?model=URL), validates them in
// the worker (the files dropped together are the models' referenced files), shows each report
// and the model, and keeps the full JSON report in the DOM.
import { ValidatorClient } from './client.js';
import { renderReport, moveFocus, rovingTabStop, keepFocus, SEVERITIES, where } from './report-view.js';
import { sourceExcerpt, hexExcerpt } from './source-view.js';
import { displayModel, locate } from './model.js';
import { Viewer } from './viewer.js';
import { dropPlan, searchDirs, modelNamer } from './resources.js';
import { optionsFromQuery, queryWithOptions, optionsToForm, optionsFromForm, describeOptions } from './options.js';

const $ = (id) => document.getElementById(id);

const state = {
  files: [], // { name, bytes, status, entry, poses, posesError, model, modelError, text, group, notChecked }
  current: -1,
  selection: { kind: 'none' },
  version: '',
  busy: 0,
  filters: { severities: new Set(SEVERITIES), rule: '' },
  options: {}, // validate()'s options (options.js), from the query string and the form
  runs: 0, // validation runs finished (a drop, a URL, options applied)
};
window.mdlcheckPage = state; // for tools and the browser tests: files, current, selection

let client;
let viewer;
let known = null;
// The library's formats, asked once (which dropped files are models: their extensions).
const formats = () => known || (known = client.formats());

function setBusy(delta) {
  state.busy += delta;
  document.body.dataset.state = state.busy ? 'busy' : 'ready';
}

function progress(text, fraction) {
  $('progress-text').textContent = text;
  const bar = $('progress-bar');
  if (fraction === null) bar.removeAttribute('value'); else bar.value = fraction;
}

// The whole run as the CLI's JSON report would hold it: one files[] entry per file so far.
function publishReport() {
  const done = state.files.filter((f) => f.entry);
  const report = { tool: { name: 'mdlcheck', version: state.version }, fail_on: state.options.failOn || 'error',
    files: done.map((f) => f.entry) };
  $('mdlcheck-report').textContent = JSON.stringify(report, null, 1).replace(/<\//g, '<\\/');
}

// The text a diagnostic's line counts in: the file's bytes, or the text a compressed file
// inflates to (the library inflated it: model().source).
function textOf(file) {
  const bytes = (file.model && file.model.source) || file.bytes;
  return new TextDecoder('utf-8').decode(bytes);
}

function renderFileList() {
  keepFocus($('files'), drawFileList);
}

function drawFileList() {
  const list = $('files');
  list.replaceChildren(...state.files.map((f, i) => {
    const li = document.createElement('li');
    const b = document.createElement('button');
    b.type = 'button';
    b.className = `file ${f.entry ? f.entry.verdict : f.status}`;
    b.dataset.index = String(i);
    if (i === state.current) b.setAttribute('aria-current', 'true');
    const mark = f.entry ? (f.entry.verdict === 'valid' ? '\u2714 valid' : '\u2716 invalid') : f.status;
    const counts = f.entry ? ` (${plural(f.entry.counts.fatal + f.entry.counts.error, 'error')}, ${plural(f.entry.counts.warning, 'warning')})` : '';
    b.textContent = `${f.name}: ${mark}${counts}`;
    b.addEventListener('click', () => showFile(i));
    li.append(b);
    return li;
  }));
  rovingTabStop(list, 'button.file', list.querySelector('button.file[aria-current="true"]'));
}

function showFile(i) {
  state.current = i;
  state.selection = { kind: 'none' };
  state.filters.rule = '';
  renderFileList();
  const f = state.files[i];
  if (!f) return;
  if (!f.entry) {
    // no report from an earlier run stays on screen for a file that is not validated now
    const title = document.createElement('h2');
    title.id = 'report-title';
    title.textContent = f.name;
    const status = document.createElement('p');
    status.textContent = f.status;
    $('report').replaceChildren(title, status);
    viewer.show(null, null, '');
    $('view-note').textContent = '';
    $('anim-controls').hidden = true;
    $('source').replaceChildren();
    describeSelection();
    return;
  }
  renderCurrentReport();
  viewer.selection = { kind: 'none' };
  viewer.show(f.model, f.poses);
  setupAnimations(f);
  viewer.frame(); // around the first frame: an animation table has no other pose
  viewer.render();
  let note = '';
  if (!f.model) note = `No preview: ${f.modelError || 'the validator gave no model'}.`;
  else if (!f.model.decoded) note = 'No preview: the validator stopped decoding this file (see the report).';
  else if (!f.model.vertices.length && !f.model.joints.length) note = 'Nothing to draw: the validator\'s model of this file holds no vertex and no joint.';
  if (!f.poses && f.posesError) note += ` No animation: ${f.posesError}`;
  $('view-note').textContent = note.trim();
  describeSelection();
  $('source').replaceChildren();
}

function renderCurrentReport() {
  const f = state.files[state.current];
  keepFocus($('report'), () => renderReport($('report'), f.entry, state.filters, selectDiagnostic,
    renderCurrentReport, f.notChecked));
}

function setupAnimations(f) {
  const anims = (f.poses && f.poses.anims) || [];
  const select = $('anim');
  select.replaceChildren(...anims.map((a, k) => new Option(`${a.name || `animation ${k}`} (${a.num_frames} frames)`, String(k))));
  $('anim-controls').hidden = !anims.some((a) => a.frames && a.frames.length);
  setFrame(0);
}

function setFrame(frame) {
  const f = state.files[state.current];
  const anim = Number($('anim').value || 0);
  const a = f && f.poses && f.poses.anims[anim];
  const count = a && a.frames ? a.frames.length : 0;
  const slider = $('frame');
  slider.max = String(Math.max(0, count - 1));
  slider.value = String(frame);
  $('frame-out').textContent = count ? `frame ${frame + 1} of ${count}` : 'base pose';
  state.frame = { anim, frame };
  viewer.setFrame(anim, frame);
}

let playing = null;
function togglePlay() {
  const button = $('play');
  if (playing) {
    clearInterval(playing);
    playing = null;
    button.textContent = 'Play';
    button.setAttribute('aria-pressed', 'false');
    return;
  }
  const f = state.files[state.current];
  const a = f && f.poses && f.poses.anims[Number($('anim').value || 0)];
  const rate = a && a.framerate > 0 ? Math.min(a.framerate, 60) : 24;
  button.textContent = 'Pause';
  button.setAttribute('aria-pressed', 'true');
  playing = setInterval(() => {
    const slider = $('frame');
    setFrame((Number(slider.value) + 1) % (Number(slider.max) + 1));
  }, 1000 / rate);
}

const KIND_NAME = { joint: 'joint', triangle: 'triangle', vertex: 'vertex' };

function describeSelection() {
  const s = state.selection;
  const f = state.files[state.current];
  let text = 'Nothing selected: choose a diagnostic to see where it is.';
  if (s.kind === 'file') text = `${s.rule}: concerns the file as a whole (${s.where}); no single element to show.`;
  if (KIND_NAME[s.kind] && s.dropped) {
    text = `${s.rule}: concerns a ${KIND_NAME[s.kind]} the validator left out of the model (found by the validator's locator); it is not drawn`;
  } else if (KIND_NAME[s.kind]) {
    const joints = viewer.joints || [];
    const name = s.kind === 'joint' && joints[s.index] ? ` "${joints[s.index].name}"` : '';
    text = `${s.rule}: selected ${KIND_NAME[s.kind]} ${s.index}${name} (found by the validator's locator)` +
      (s.drawable ? '' : `; it is not in the drawn model (${f && f.model ? 'index past its table' : 'no mesh preview'})`);
  }
  $('selection-caption').textContent = text;
  $('viewer').dataset.selection = KIND_NAME[s.kind] ? `${s.kind}:${s.dropped ? 'dropped' : s.index}` : s.kind;
}

async function selectDiagnostic(index) {
  const f = state.files[state.current];
  const d = f.entry.messages[index];
  const hit = locate(d, f.model);
  state.selection = { ...hit, rule: d.id, diagnostic: index, where: where(d) };
  for (const b of document.querySelectorAll('button.diag')) b.setAttribute('aria-pressed', String(Number(b.dataset.index) === index));
  viewer.select(hit);
  describeSelection();
  const rows = d.line !== undefined
    ? sourceExcerpt(f.text ?? (f.text = textOf(f)), d.line, d.column)
    : d.offset !== undefined ? hexExcerpt(f.bytes, d.offset) : [];
  $('source').replaceChildren(...rows.map((r) => {
    const span = document.createElement(r.current ? 'mark' : 'span');
    span.textContent = `${r.text}\n`;
    return span;
  }));
  $('source-caption').textContent = rows.length ? `${d.id} at ${where(d)}` : `${d.id}: no location in the file`;
}

async function readWithProgress(name, stream, total) {
  const reader = stream.getReader();
  const parts = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    parts.push(value);
    size += value.length;
    progress(`reading ${name}: ${(size / 1048576).toFixed(1)} MB`, total ? Math.min(1, size / total) * 0.2 : null);
  }
  return new Uint8Array(await new Blob(parts).arrayBuffer());
}

async function validateOne(f) {
  f.status = 'validating';
  renderFileList();
  const group = f.group && { id: f.group.id, files: f.group.files, dirs: searchDirs(f.name, f.group.root) };
  const result = await client.validate(f.name, f.bytes, state.options, (stage, fraction) => progress(`${f.name}: ${stage}`, fraction), group);
  f.entry = result.report;
  f.poses = result.poses;
  f.posesError = result.posesError;
  state.version = result.version;
  $('version').textContent = `mdlcheck ${result.version}`;
  f.model = displayModel(result.model);
  f.modelError = result.modelError;
  f.text = null;
  f.status = f.entry.verdict;
  publishReport();
}

// Drops, URLs and options run one after another, so options apply to every file in order.
let work = Promise.resolve();
function enqueue(job) {
  work = work.then(job, job);
  return work;
}

const plural = (n, word) => `${n} ${word}${n === 1 ? '' : 's'}`;

// sources: [{ name, load: () => Promise<Uint8Array> }]; notChecked: null when the sources are
// one tree (a drop, the files or folder chosen), whose files the models may name; else why
// references are not checked.
function addFiles(sources, notChecked = null) {
  if (!sources.length) return work;
  return enqueue(() => loadAndValidate(sources, notChecked));
}

let groups = 0;

async function loadAndValidate(sources, notChecked) {
  setBusy(1);
  const plan = notChecked ? { models: sources.map((s) => s.name), root: '' }
    : dropPlan(sources.map((s) => s.name), modelNamer(await formats()));
  const models = new Set(plan.models);
  const group = notChecked ? null : { id: ++groups, files: new Map(), root: plan.root };
  const added = sources.filter((s) => models.has(s.name))
    .map((s) => ({ name: s.name, status: 'queued', source: s, group, notChecked }));
  const others = sources.filter((s) => !models.has(s.name));
  const first = state.files.length;
  const failed = [];
  state.files.push(...added);
  renderFileList();
  // a tree is read whole first: any model may name any of its files (one that cannot be read
  // is not among them: a reference to it is reported missing)
  const unread = [], loaded = new Map();
  if (group) {
    for (const s of sources) {
      try {
        loaded.set(s, await s.load());
        group.files.set(s.name, loaded.get(s));
      } catch (err) {
        unread.push(`${s.name} (${err.message})`);
      }
    }
  }
  for (const [k, f] of added.entries()) {
    try {
      f.bytes = loaded.get(f.source) || await f.source.load();
      progress(`${f.name} (${k + 1} of ${added.length})`, 0.2);
      await validateOne(f);
    } catch (err) {
      f.status = `not validated: ${err.message}`;
      failed.push(err.message);
    }
    delete f.source;
    renderFileList();
    if (state.current < first) showFile(first);
    else if (state.current === first + k) showFile(state.current);
  }
  optionsStatus(added.length, failed);
  progress(`${plural(added.length, 'file')} validated` +
    (others.length ? `; ${plural(others.length, 'other file')} read as files the models may name` : '') +
    (unread.length ? `; could not read ${unread.join(', ')}` : ''), 1);
  state.runs++;
  setBusy(-1);
}

function optionsStatus(count, failed) {
  const how = describeOptions(state.options);
  $('options-status').textContent = failed.length
    ? `Not validated with ${how}: ${failed[0]}`
    : `${plural(count, 'file')} validated with ${how}.`;
}

// Validates every file again under the options now set (their bytes are kept).
async function revalidate() {
  setBusy(1);
  const files = state.files.filter((f) => f.bytes);
  const failed = [];
  for (const [k, f] of files.entries()) {
    f.entry = null;
    f.status = 'queued';
    try {
      progress(`${f.name} (${k + 1} of ${files.length})`, 0.2);
      await validateOne(f);
    } catch (err) {
      f.status = `not validated: ${err.message}`;
      failed.push(err.message);
    }
  }
  publishReport();
  renderFileList();
  if (state.current >= 0) showFile(state.current);
  optionsStatus(files.length, failed);
  progress(`${plural(files.length, 'file')} validated`, 1);
  state.runs++;
  setBusy(-1);
}

function applyOptions(event) {
  event.preventDefault();
  state.options = optionsFromForm($);
  // the address keeps the options, so that a link (with ?model=) gives the same report
  const url = `${location.pathname}${queryWithOptions(location.search, state.options)}${location.hash}`;
  try { history.replaceState(null, '', url); } catch { /* a file:// page may not change its address */ }
  enqueue(revalidate);
}

function fileSource(file, name = file.webkitRelativePath || file.name) {
  return { name, load: () => readWithProgress(name, file.stream(), file.size) };
}

// A dropped folder is walked (entries in name order), like the CLI walks a directory.
async function entrySources(entry, out) {
  if (entry.isFile) {
    const file = await new Promise((res, rej) => entry.file(res, rej));
    out.push(fileSource(file, entry.fullPath.replace(/^\//, '')));
  } else if (entry.isDirectory) {
    const reader = entry.createReader();
    const all = [];
    for (;;) {
      const batch = await new Promise((res, rej) => reader.readEntries(res, rej));
      if (!batch.length) break;
      all.push(...batch);
    }
    all.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    for (const e of all) if (!e.name.startsWith('.')) await entrySources(e, out);
  }
}

async function onDrop(event) {
  event.preventDefault();
  $('drop').classList.remove('over');
  const items = [...(event.dataTransfer.items || [])];
  const entries = items.map((i) => (i.webkitGetAsEntry ? i.webkitGetAsEntry() : null));
  const sources = [];
  if (entries.length && entries.every(Boolean)) {
    for (const e of entries) await entrySources(e, sources);
  } else {
    for (const file of event.dataTransfer.files) sources.push(fileSource(file));
  }
  addFiles(sources);
}

async function loadFromUrl(url) {
  const name = decodeURIComponent(new URL(url, location.href).pathname.split('/').pop() || url);
  // alone: the files beside it on the server are not fetched, so its references are unchecked
  await addFiles([{ name, load: async () => {
    const response = await fetch(url);
    if (!response.ok) throw new Error(`${url}: HTTP ${response.status}`);
    return readWithProgress(name, response.body, Number(response.headers.get('content-length')) || 0);
  } }], 'the model was opened by its address alone, without the files beside it (drop it with them to check them)');
}

function start() {
  client = new ValidatorClient();
  viewer = new Viewer($('viewer'));
  state.viewer = viewer;
  const drop = $('drop');
  drop.addEventListener('dragover', (e) => { e.preventDefault(); drop.classList.add('over'); });
  drop.addEventListener('dragleave', () => drop.classList.remove('over'));
  drop.addEventListener('drop', onDrop);
  document.addEventListener('dragover', (e) => e.preventDefault());
  document.addEventListener('drop', (e) => { if (!drop.contains(e.target)) onDrop(e); });
  for (const id of ['pick', 'pick-dir']) {
    $(id).addEventListener('change', (e) => { addFiles([...e.target.files].map((f) => fileSource(f))); e.target.value = ''; });
  }
  $('files').addEventListener('keydown', (e) => moveFocus(e, $('files'), 'button.file'));
  $('frame').addEventListener('input', (e) => setFrame(Number(e.target.value)));
  $('anim').addEventListener('change', () => setFrame(0));
  $('play').addEventListener('click', togglePlay);
  document.addEventListener('keydown', (e) => {
    if (e.key === 'Escape' && state.selection.kind !== 'none') {
      state.selection = { kind: 'none' };
      viewer.select(state.selection);
      describeSelection();
    }
  });
  state.options = optionsFromQuery(location.search);
  optionsToForm(state.options, $);
  $('options').addEventListener('submit', applyOptions);
  $('opt-reset').addEventListener('click', () => { optionsToForm({}, $); $('options').requestSubmit(); });
  document.body.dataset.state = 'ready';
  const model = new URLSearchParams(location.search).get('model');
  if (model) loadFromUrl(model);
}

start();
