/* api.js - the JavaScript API over the WebAssembly library (web/API.md): validate, poses,
 * compare, convert, rules, version. No import or export here: make web wraps it into the ES module
 * (mdlcheck.mjs) and the single-file classic script (mdlcheck.single.js); createCore resolves to
 * emscripten's module. */
// eslint-disable-next-line no-unused-vars
function mdlcheckApi(createCore) {
  const VERSION = '%MDL_VERSION%';
  const DEFAULT_MAX_INPUT_SIZE = 2 ** 30; /* MDL_DEFAULT_MAX_INPUT_SIZE */
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

  /* egg_pz_is_zlib's test: a gzip member or a zlib (RFC 1950) header. */
  function compression(b) {
    if (b.length < 2) return null;
    if (b[0] === 0x1f && b[1] === 0x8b) return 'gzip';
    return (b[0] & 0x0f) === 8 && b[0] >> 4 <= 7 && ((b[0] << 8) | b[1]) % 31 === 0 ? 'deflate' : null;
  }

  function adler32(b) {
    let a = 1, s = 0;
    for (let i = 0; i < b.length;) {
      const end = Math.min(i + 3800, b.length); /* no overflow of 2^53 before the modulo */
      for (; i < end; i++) { a += b[i]; s += a; }
      a %= 65521; s %= 65521;
    }
    return ((s << 16) | a) >>> 0;
  }

  let crcTable = null;
  function crc32(b) {
    if (!crcTable) {
      crcTable = new Uint32Array(256);
      for (let n = 0; n < 256; n++) {
        let c = n;
        for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
        crcTable[n] = c >>> 0;
      }
    }
    let c = 0xffffffff;
    for (let i = 0; i < b.length; i++) c = crcTable[(c ^ b[i]) & 0xff] ^ (c >>> 8);
    return (c ^ 0xffffffff) >>> 0;
  }

  const u32be = (b, p) => ((b[p] << 24) | (b[p + 1] << 16) | (b[p + 2] << 8) | b[p + 3]) >>> 0;
  const u32le = (b, p) => ((b[p + 3] << 24) | (b[p + 2] << 16) | (b[p + 1] << 8) | b[p]) >>> 0;

  /* Where the stream ends in bytes: DecompressionStream does not say, and some (node's) inflate
   * past bytes after it. The stream ends with its checksum of the text: a zlib stream's Adler-32
   * (big-endian), a gzip member's CRC-32 and length (little-endian). Returns {end, len}: end is
   * bytes.length when the stream is the whole input, its end when found before (searched from
   * the end: trailing bytes are few, and a false match is likelier in a long stream), UNKNOWN
   * otherwise; len is the length of the stream's own text (a gzip inflater may go on into a
   * second member). */
  const UNKNOWN = 0xffffffff; /* INPUT_CONSUMED_UNKNOWN in a 32-bit size_t */
  function streamEnd(bytes, kind, text) {
    const n = bytes.length;
    if (kind === 'deflate') {
      const sum = adler32(text);
      for (let p = n - 4; p >= 2; p--) if (u32be(bytes, p) === sum) return { end: p + 4, len: text.length };
      return { end: UNKNOWN, len: text.length };
    }
    const sum = crc32(text), len = text.length >>> 0;
    for (let p = n - 8; p >= 10; p--)
      if (u32le(bytes, p) === sum && u32le(bytes, p + 4) === len) return { end: p + 8, len: text.length };
    /* a first member followed by a second: its trailer stands before the next gzip header */
    for (let p = 10; p + 10 <= n; p++) {
      if (bytes[p + 8] !== 0x1f || bytes[p + 9] !== 0x8b) continue;
      const first = u32le(bytes, p + 4);
      if (first <= text.length && u32le(bytes, p) === crc32(text.subarray(0, first))) return { end: p + 8, len: first };
    }
    return { end: UNKNOWN, len: text.length };
  }

  /* Inflate with the platform's DecompressionStream, reading at most stop bytes of text. */
  async function inflate(bytes, kind, stop) {
    const ds = new DecompressionStream(kind);
    const writer = ds.writable.getWriter();
    writer.write(bytes).catch(() => {});
    writer.close().catch(() => {});
    const reader = ds.readable.getReader();
    const chunks = [];
    let total = 0;
    try {
      while (total < stop) {
        const { done, value } = await reader.read();
        if (done) break;
        chunks.push(value);
        total += value.length;
      }
    } catch (e) {
      return { why: `the stream does not inflate (${e.message})` };
    }
    if (total >= stop) reader.cancel().catch(() => {});
    const text = new Uint8Array(Math.min(total, stop));
    let at = 0;
    for (const c of chunks) {
      const n = Math.min(c.length, text.length - at);
      text.set(c.subarray(0, n), at);
      at += n;
      if (at === text.length) break;
    }
    /* a text cut at the bound is too large whatever follows the stream */
    if (total >= stop) return { text, consumed: bytes.length };
    const { end, len } = streamEnd(bytes, kind, text);
    return { text: text.subarray(0, len), consumed: end };
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

  /* The bound an .egg.pz inflates under: maxInputSize as the CLI reads it (0: not a size). */
  function inputBound(M, h, v) {
    if (v === undefined) return DEFAULT_MAX_INPUT_SIZE;
    return M._mdl_web_size_parse(h.string(String(v)));
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

  /* One C entry point over one input: .egg.pz inflated first (this build has no zlib), the
   * bytes, name and settings copied into the wasm heap, entry(data, size, name, settings,
   * status, error, errorSize) called, its JSON parsed. */
  async function withInput(bytes, opts, entry, takesResources = false) {
    const data = toBytes(bytes);
    if (opts.resources !== undefined && !takesResources)
      throw fail('EINVAL', "mdlcheck: unknown option 'resources' (validate() takes it)");
    const res = opts.resources === undefined ? null : resourcesOf(opts.resources, opts.name);
    const M = await load();
    const settings = settingsOf(M, opts, ['name', 'resources']);
    if (res) settings.push(`resources=${res.dirs.join(':')}`);
    const kind = compression(data);
    let inflated = null;
    if (kind) {
      const h = heap(M);
      let bound;
      try { bound = inputBound(M, h, opts.maxInputSize); } finally { h.free(); }
      /* over the bound, the C refuses the bytes themselves (MDL-IO-002), as the CLI a file */
      if (bound > 0 && data.length <= bound) inflated = await inflate(data, kind, bound + 1);
    }
    const cleanup = res ? treeWrite(M, res) : null;
    const h = heap(M);
    try {
      if (inflated) {
        if (inflated.text)
          M._mdl_web_inflated(h.bytes(inflated.text), inflated.text.length, inflated.consumed, 0);
        else M._mdl_web_inflated(0, 0, 0, h.string(inflated.why));
      }
      const dataPtr = h.bytes(data), name = h.string(opts.name), list = h.strings(settings);
      return callJson(M, h, (status, error, size) =>
        entry(M)(dataPtr, data.length, name, list, status, error, size));
    } finally {
      M._mdl_web_inflated(0, 0, 0, 0);
      h.free();
      if (cleanup) cleanup();
    }
  }

  const validate = (bytes, opts = {}) => withInput(bytes, opts, (M) => M._mdl_validate_buffer_json,
    true);
  const poses = (bytes, opts = {}) => withInput(bytes, opts, (M) => M._mdl_poses_buffer_json);

  /* Whether two models agree: the report `mdlcheck compare -f json A B` prints, from the C
   * library's mdl_compare_buffers_json. aName and bName name the inputs (their extensions help
   * detect the format). The host inflates one .egg.pz per call (withInput), so a compressed
   * input is refused here rather than compared as something it is not. */
  async function compare(a, b, opts = {}) {
    const sides = [toBytes(a), toBytes(b)];
    const rest = { ...opts };
    const names = [rest.aName, rest.bName];
    delete rest.aName;
    delete rest.bName;
    if (rest.resources !== undefined)
      throw fail('EINVAL', "mdlcheck: unknown option 'resources' (validate() takes it)");
    if (rest.name !== undefined) throw fail('EINVAL', "mdlcheck: compare names its inputs with 'aName' and 'bName'");
    sides.forEach((bytes, i) => {
      if (compression(bytes))
        throw fail('EINVAL', `mdlcheck: compare of compressed input ${names[i] || (i ? 'b' : 'a')} (.egg.pz) is not supported here; inflate it first or use the CLI`);
    });
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
   * refused, or the bytes did not validate). An .egg.pz input is inflated first (withInput). */
  async function convert(bytes, opts = {}) {
    const { to, ...rest } = opts || {};
    if (typeof to !== 'string' || !to) throw fail('EINVAL', "mdlcheck: convert needs the target format: { to: 'iqe' }");
    const M = await load();
    const extra = heap(M);
    try {
      const target = extra.string(to), out = extra.alloc(4), outSize = extra.alloc(4);
      M.HEAPU32[out >> 2] = 0;
      M.HEAPU32[outSize >> 2] = 0;
      const report = await withInput(bytes, rest, (Mod) => (data, size, name, list, status, error, errorSize) =>
        Mod._mdl_convert_buffer_json(data, size, name, target, list, out, outSize, status, error, errorSize));
      const ptr = M.HEAPU32[out >> 2], n = M.HEAPU32[outSize >> 2];
      let written = null;
      if (ptr) {
        written = M.HEAPU8.slice(ptr, ptr + n); /* a copy: the heap may grow and move */
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

  const version = () => VERSION;

  return { validate, poses, compare, convert, rules, version };
}
