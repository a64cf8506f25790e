/* api.js - the JavaScript API over the WebAssembly library (web/API.md): validate, poses,
 * model, compare, convert, fix, rules, formats, version. No import or export here: make web wraps it into the ES module
 * (mdlcheck.mjs) and the single-file classic script (mdlcheck.single.js); createCore resolves to
 * emscripten's module. */
// eslint-disable-next-line no-unused-vars
function mdlcheckApi(createCore) {
  const VERSION = '%MDL_VERSION%';
  const STATUS = { '-1': 'EIO', '-2': 'EINTERNAL', '-3': 'EINVAL', '-4': 'ENOMEM', '-5': 'EDECODE' };
  const ERROR_SIZE = 65536; /* room for an EDECODE's diagnostics (the CLI's text report) */
  let core = null;
  const load = () => core || (core = createCore());

  function fail(code, message) {
    const e = new Error(message);
    e.code = code;
    return e;
  }

  function toBytes(bytes) {
    if (bytes instanceof Uint8Array) return bytes;
    if (bytes instanceof ArrayBuffer) return new Uint8Array(bytes);
    if (ArrayBuffer.isView(bytes)) return new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    throw fail('EINVAL', 'mdlcheck: bytes must be a Uint8Array or an ArrayBuffer');
  }

  const list = (v) => (v === undefined ? [] : Array.isArray(v) ? v : [v]);

  /* The options as the C library's "key=value" settings. Each option's library name comes from
   * the one table of options (core/options.def, through mdl_web_setting_key: a name it has no row
   * for is an unknown option), and every value is checked by the library's parser, the one the
   * CLI uses, not here. Only the shapes are JavaScript's: an
   * array repeats the setting, an object (severity) gives PATTERN=VALUE pairs, a boolean is
   * true or false. */
  function settingsOf(M, opts, skip) {
    const out = [];
    const h = heap(M);
    try {
      for (const [key, v] of Object.entries(opts || {})) {
        if (v === undefined || skip.includes(key)) continue;
        const k = M._mdl_web_setting_key(h.string(key));
        if (!k) throw fail('EINVAL', `mdlcheck: unknown option '${key}'`);
        const name = M.UTF8ToString(k);
        const text = (x) => (typeof x === 'boolean' ? (x ? 'true' : 'false') : String(x));
        if (v !== null && typeof v === 'object' && !Array.isArray(v))
          for (const [p, s] of Object.entries(v)) out.push(`${name}=${text(p)}=${text(s)}`);
        else for (const x of list(v)) out.push(`${name}=${text(x)}`);
      }
    } finally {
      h.free();
    }
    return out;
  }

  /* Everything malloc'd for one call, released by free(). */
  function heap(M) {
    const ptrs = [];
    const alloc = (n) => {
      const p = M._malloc(Math.max(n, 1));
      if (!p) throw fail('ENOMEM', 'mdlcheck: out of WebAssembly memory');
      ptrs.push(p);
      return p;
    };
    return {
      alloc,
      bytes(b) { const p = alloc(b.length); M.HEAPU8.set(b, p); return p; },
      string(s) {
        if (s === undefined || s === null) return 0;
        const n = M.lengthBytesUTF8(s) + 1;
        const p = alloc(n);
        M.stringToUTF8(s, p, n);
        return p;
      },
      strings(list) {
        const p = alloc(4 * (list.length + 1));
        list.forEach((s, i) => { M.HEAPU32[(p >> 2) + i] = this.string(String(s)); });
        M.HEAPU32[(p >> 2) + list.length] = 0;
        return p;
      },
      free() { for (const p of ptrs) M._free(p); },
    };
  }

  /* One call of a C entry point that answers JSON text (and a status, and an error message). */
  function callJson(M, h, call) {
    const status = h.alloc(4), error = h.alloc(ERROR_SIZE);
    M.HEAPU8[error] = 0;
    M.HEAP32[status >> 2] = -4; /* what a NULL without a status means: memory ran out */
    const ptr = call(status, error, ERROR_SIZE);
    const rc = M.HEAP32[status >> 2];
    if (!ptr) {
      const msg = M.UTF8ToString(error).replace(/\n$/, '') || 'out of memory';
      throw fail(STATUS[rc] || 'EINTERNAL', `mdlcheck: ${msg}`);
    }
    const text = M.UTF8ToString(ptr);
    M._mdl_string_free(ptr);
    return JSON.parse(text);
  }


  /* A path as its '/'-separated parts with "." and empty parts dropped and ".." kept only
   * where it climbs past the start (lexically, as core/resources.c normalises). */
  function pathParts(p) {
    const out = [];
    for (const c of p.split('/')) {
      if (c === '' || c === '.') continue;
      if (c === '..' && out.length && out[out.length - 1] !== '..') out.pop();
      else out.push(c);
    }
    return out;
  }
  /* how many leading ".." a normalised path has */
  const climbs = (parts) => {
    const k = parts.findIndex((c) => c !== '..');
    return k < 0 ? parts.length : k;
  };
  const absolute = (p) => p.startsWith('/') || p.startsWith('\\') || /^[A-Za-z]:/.test(p);

  /* validate()'s resources option checked and put in order: the files as [path parts, bytes],
   * the search folders, and how far any path climbs with "..". */
  function resourcesOf(res, name) {
    if (typeof res !== 'object' || res === null)
      throw fail('EINVAL', 'mdlcheck: resources must be an object { files, dirs }');
    for (const key of Object.keys(res))
      if (key !== 'files' && key !== 'dirs') throw fail('EINVAL', `mdlcheck: unknown resources key '${key}'`);
    const entries = res.files === undefined ? [] : res.files instanceof Map ? [...res.files]
      : typeof res.files === 'object' && res.files !== null && !Array.isArray(res.files) ? Object.entries(res.files) : null;
    if (!entries) throw fail('EINVAL', 'mdlcheck: resources.files must be an object or a Map of path to bytes');
    const dirs = list(res.dirs).map(String);
    let depth = 0;
    const files = entries.map(([path, bytes]) => {
      const parts = pathParts(String(path));
      if (absolute(String(path)) || !parts.length || parts[parts.length - 1] === '..')
        throw fail('EINVAL', `mdlcheck: resources file '${path}' must be a relative path to a file`);
      depth = Math.max(depth, climbs(parts));
      return [parts, toBytes(bytes)];
    });
    for (const d of dirs) {
      if (absolute(d) || d.includes(':') || d === '')
        throw fail('EINVAL', `mdlcheck: resources folder '${d}' must be a relative path without ':'`);
      depth = Math.max(depth, climbs(pathParts(d)));
    }
    if (name !== undefined && absolute(String(name)))
      throw fail('EINVAL', 'mdlcheck: with resources, name must be a relative path (the files are relative to the same folder)');
    if (name !== undefined) depth = Math.max(depth, climbs(pathParts(String(name)).slice(0, -1)));
    return { files, dirs, depth };
  }

  /* A fresh folder of emscripten's in-memory file system holding the files, made the working
   * directory, deep enough that paths climbing with ".." stay inside it; returns the function
   * that removes it all and goes back to "/". */
  let treeCount = 0;
  function treeWrite(M, res) {
    const FS = M.FS;
    const top = `/mdlcheck-resources-${++treeCount}`;
    const remove = (p) => {
      let st;
      try { st = FS.lstat(p); } catch { return; }
      if (FS.isDir(st.mode)) {
        for (const e of FS.readdir(p)) if (e !== '.' && e !== '..') remove(`${p}/${e}`);
        FS.rmdir(p);
      } else FS.unlink(p);
    };
    const cleanup = () => { FS.chdir('/'); remove(top); };
    try {
      const cwd = top + '/_'.repeat(res.depth);
      FS.mkdirTree(cwd);
      for (const [parts, bytes] of res.files) {
        /* lexically under cwd: no ".." is left past the depth made for it */
        const below = pathParts([...cwd.slice(1).split('/'), ...parts].join('/'));
        FS.mkdirTree(`/${below.slice(0, -1).join('/')}`);
        /* canOwn: MEMFS keeps a view of the caller's bytes, no copy (C only reads them) */
        FS.writeFile(`/${below.join('/')}`, bytes, { canOwn: true });
      }
      FS.chdir(cwd);
    } catch (e) {
      cleanup();
      throw fail('EINVAL', `mdlcheck: the resources files could not be laid out: ${e.message || e.code || e}`);
    }
    return cleanup;
  }

  /* One C entry point over one input: the bytes, name and settings copied into the wasm heap,
   * entry(data, size, name, settings, status, error, errorSize) called, its JSON parsed (an
   * .egg.pz is inflated by the library, as in the CLI). */
  async function withInput(bytes, opts, entry, takesResources = false) {
    const data = toBytes(bytes);
    if (opts.resources !== undefined && !takesResources)
      throw fail('EINVAL', "mdlcheck: unknown option 'resources' (validate() takes it)");
    const res = opts.resources === undefined ? null : resourcesOf(opts.resources, opts.name);
    const M = await load();
    const settings = settingsOf(M, opts, ['name', 'resources']);
    if (res) settings.push(`resources=${res.dirs.join(':')}`);
    const cleanup = res ? treeWrite(M, res) : null;
    const h = heap(M);
    try {
      const dataPtr = h.bytes(data), name = h.string(opts.name), list = h.strings(settings);
      return callJson(M, h, (status, error, size) =>
        entry(M)(dataPtr, data.length, name, list, status, error, size));
    } finally {
      h.free();
      if (cleanup) cleanup();
    }
  }

  const validate = (bytes, opts = {}) => withInput(bytes, opts, (M) => M._mdl_validate_buffer_json,
    true);
  const poses = (bytes, opts = {}) => withInput(bytes, opts, (M) => M._mdl_poses_buffer_json);

  const SOURCE_BOUND = 2 ** 30; /* the text a compressed input's source view reads at most */

  /* The decoded model for a viewer (mdl_model_buffer_json): the library's reading of the file,
   * where each element is in it and the element each diagnostic points at. A compressed input
   * gets its text as `source` (the bytes its lines count in), inflated by the library too. */
  async function model(bytes, opts = {}) {
    const data = toBytes(bytes);
    const m = await withInput(data, opts, (M) => M._mdl_model_buffer_json);
    if (m.compression) {
      const M = await load();
      const h = heap(M);
      try {
        const len = h.alloc(4);
        const p = M._mdl_web_inflate(h.bytes(data), data.length, SOURCE_BOUND, len);
        if (p) {
          m.source = M.HEAPU8.slice(p, p + M.HEAPU32[len >> 2]);
          M._free(p);
        }
      } finally {
        h.free();
      }
    }
    return m;
  }

  /* Whether two models agree: the report `mdlcheck compare -f json A B` prints, from the C
   * library's mdl_compare_buffers_json. aName and bName name the inputs (their extensions help
   * detect the format). */
  async function compare(a, b, opts = {}) {
    const sides = [toBytes(a), toBytes(b)];
    const rest = { ...opts };
    const names = [rest.aName, rest.bName];
    delete rest.aName;
    delete rest.bName;
    if (rest.resources !== undefined)
      throw fail('EINVAL', "mdlcheck: unknown option 'resources' (validate() takes it)");
    if (rest.name !== undefined) throw fail('EINVAL', "mdlcheck: compare names its inputs with 'aName' and 'bName'");
    const M = await load();
    const settings = settingsOf(M, rest, []);
    const h = heap(M);
    try {
      const ptrs = sides.map((bytes) => h.bytes(bytes));
      const namePtrs = names.map((n) => h.string(n === undefined ? undefined : String(n)));
      const list = h.strings(settings);
      return callJson(M, h, (status, error, size) => M._mdl_compare_buffers_json(
        ptrs[0], sides[0].length, namePtrs[0], ptrs[1], sides[1].length, namePtrs[1],
        list, status, error, size));
    } finally {
      h.free();
    }
  }

  /* Convert one file's bytes to the format `to`: { report, bytes }, the report `mdlcheck convert
   * -f json IN OUT` prints (IN's entry, then OUT's: the writer's announcements, the output's
   * findings, the proof's differences) from the C library's mdl_convert_buffer_json, and the
   * converted file (null when nothing would have been written: IN had errors, the writer
   * refused, or the bytes did not validate). An .egg.pz input is inflated by the library. */
  async function convert(bytes, opts = {}) {
    const { to, ...rest } = opts || {};
    if (typeof to !== 'string' || !to) throw fail('EINVAL', "mdlcheck: convert needs the target format's name: { to: NAME }");
    return withOutBytes(bytes, rest, (Mod, extra) => {
      const target = extra.string(to);
      return (data, size, name, list, out, outSize, status, error, errorSize) =>
        Mod._mdl_convert_buffer_json(data, size, name, target, list, out, outSize, status, error, errorSize);
    });
  }

  /* Repair one file's bytes as `mdlcheck fix -f json IN` does: { report, bytes }, the report
   * (IN's entry: its findings and each repaired one as MDL-FIX-003; then the repaired bytes': their
   * findings, the proof's differences, the refusals MDL-FIX-001/002) from the C library's
   * mdl_fix_buffer_json, and the repaired file in IN's own format (IN's own bytes when there was
   * nothing to repair; null when the fix was refused). Nothing is written anywhere. */
  async function fix(bytes, opts = {}) {
    return withOutBytes(bytes, opts || {}, (Mod) =>
      (data, size, name, list, out, outSize, status, error, errorSize) =>
        Mod._mdl_fix_buffer_json(data, size, name, list, out, outSize, status, error, errorSize));
  }

  /* { report, bytes } from a buffer call that also hands back written bytes: make(Mod, extra)
   * gives the call, taking (data, size, name, list, out, outSize, status, error, errorSize);
   * bytes is a copy (the heap may grow and move), null when it wrote none. */
  async function withOutBytes(bytes, opts, make) {
    const M = await load();
    const extra = heap(M);
    try {
      const out = extra.alloc(4), outSize = extra.alloc(4);
      M.HEAPU32[out >> 2] = 0;
      M.HEAPU32[outSize >> 2] = 0;
      const call = make(M, extra);
      const report = await withInput(bytes, opts, () => (data, size, name, list, status, error, errorSize) =>
        call(data, size, name, list, out, outSize, status, error, errorSize));
      const ptr = M.HEAPU32[out >> 2], n = M.HEAPU32[outSize >> 2];
      let written = null;
      if (ptr) {
        written = M.HEAPU8.slice(ptr, ptr + n);
        M._mdl_bytes_free(ptr);
      }
      return { report, bytes: written };
    } finally {
      extra.free();
    }
  }

  async function rules() {
    const M = await load();
    const h = heap(M);
    try {
      return callJson(M, h, () => M._mdl_rules_json()).rules;
    } finally {
      h.free();
    }
  }

  /* The formats the library knows, as its registry describes them: name, description,
   * extensions (lower case, with the dot), up_axis. */
  async function formats() {
    const M = await load();
    const h = heap(M);
    try {
      return callJson(M, h, () => M._mdl_web_formats_json());
    } finally {
      h.free();
    }
  }

  const version = () => VERSION;

  return { validate, poses, model, compare, convert, fix, rules, formats, version };
}
