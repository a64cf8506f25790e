// mdlcheck.d.ts - TypeScript declarations of web/dist/mdlcheck.mjs (web/API.md); make web copies
// them beside it. web/test/package.test.mjs keeps the declared names equal to the module's exports.

/** A rule's severity, strongest first. */
export type Severity = 'fatal' | 'error' | 'warning' | 'info' | 'hint';

/** A format's name (`format` option: skip detection): one the library's registry knows; an
 * unknown one rejects with EINVAL. The names are the library's, not listed here. */
export type Format = string;

/** The bytes of one file: a Uint8Array (a node Buffer is one), another typed array view, or an ArrayBuffer. */
export type Bytes = ArrayBuffer | ArrayBufferView;

/** The CLI's long options (web/API.md, "The functions"). */
export interface Options {
  /** `--assume-format` */
  format?: Format;
  /** `--ignore`: a rule id, a prefix ending in `*`, or a format name */
  ignore?: string | string[];
  /** `--only` */
  only?: string | string[];
  /** `--severity`: "PATTERN=SEV", a list of them, or { PATTERN: SEV } */
  severity?: string | string[] | Record<string, Severity>;
  /** `--fail-on` (default "error") */
  failOn?: Severity;
  /** `--profile` */
  profile?: string;
  /** `--strict` */
  strict?: boolean;
  /** `--max-issues` (0: no limit) */
  maxIssues?: number;
  /** `--max-per-rule` (default 3; 0: never fold) */
  maxPerRule?: number;
  /** `--max-input-size`: bytes, or a string such as "512M" */
  maxInputSize?: number | string;
  /** `--max-memory`: "auto" (default), "none", bytes, or a string such as "4G"; validate(),
   * poses(), convert() and compare() each hold their decodes to it (MDL-MEM-002 past it) */
  maxMemory?: number | string;
}

/** validate()'s and poses()' options: the file's name (detection, the entry's path) too. */
export interface InputOptions extends Options {
  name?: string;
}

/** The files a model may name (`--resources`): paths relative to the model's folder. */
export interface Resources {
  files?: Record<string, Bytes> | Map<string, Bytes>;
  dirs?: string | string[];
}

export interface ValidateOptions extends InputOptions {
  resources?: Resources;
}

export interface CompareOptions extends Options {
  /** the first input's file name (its extension helps detect the format) */
  aName?: string;
  /** the second input's file name */
  bName?: string;
}

/** convert()'s options: the target format, the input's name, and convert's own options. */
export interface ConvertOptions extends InputOptions {
  /** the format to convert to */
  to: Format;
  /** `--accept-loss`: announced losses (MDL-CNV-*) accepted, with the proof's differences they explain */
  acceptLoss?: string | string[];
  /** `--target-version`: the format version written */
  targetVersion?: string | number;
}

/** What convert() resolves to. */
export interface Conversion {
  /** the report `mdlcheck convert -f json IN OUT` prints: IN's entry, then OUT's */
  report: Report;
  /** the converted file; null when nothing would have been written (IN had errors, the writer
   * refused, or the bytes did not validate) */
  bytes: Uint8Array | null;
}

/** What fix() resolves to. */
export interface Repair {
  /** the report `mdlcheck fix -f json IN` prints: IN's entry (its findings, each repaired one as
   * MDL-FIX-003), then the repaired bytes' (their findings, the proof's differences, MDL-FIX-001/002) */
  report: Report;
  /** the repaired file in IN's own format (IN's own bytes when there was nothing to repair); null
   * when the fix was refused */
  bytes: Uint8Array | null;
}

/** One diagnostic of a report entry (spec/report.schema.json). */
export interface Message {
  id: string;
  severity: Severity;
  message: string;
  line?: number;
  column?: number;
  offset?: number;
  path?: string;
  spec?: string;
  actual?: string;
  expected?: string;
  folded?: number;
  [key: string]: unknown;
}

/** One entry of the CLI's JSON report `files` array (`mdlcheck -f json FILE`). */
export interface Entry {
  path: string;
  format: string;
  version: string;
  compression?: 'zlib' | 'gzip';
  verdict: 'valid' | 'invalid';
  counts: Record<Severity, number>;
  truncated: boolean;
  messages: Message[];
  [key: string]: unknown;
}

/** A whole report, as `mdlcheck compare -f json A B` prints it (one entry, the differences), or
 * `mdlcheck convert -f json IN OUT` (IN's entry, then OUT's). */
export interface Report {
  files: Entry[];
  [key: string]: unknown;
}

/** What `mdlcheck poses -f json FILE` prints: the skeleton, its base pose, every frame. */
export interface Poses {
  joints: unknown[];
  [key: string]: unknown;
}

/** Where a diagnostic points in the model: an element, or one the decoder left out. */
export interface ModelElement {
  kind: 'joint' | 'vertex' | 'triangle' | 'mesh';
  index?: number;
  dropped?: boolean;
}

/** The decoded model for a viewer (mdl_model_buffer_json; web/API.md). */
export interface Model {
  format: string;
  up_axis: 'y' | 'z';
  decoded: boolean;
  joints: { index: number; name: string; parent: number; t: number[]; r: number[]; s: number[] }[];
  meshes: unknown[];
  num_vertexes: number;
  positions: number[];
  blend_size: number;
  blend_indexes: number[];
  blend_weights: number[];
  num_triangles: number;
  triangles: number[];
  spans: unknown[];
  diagnostics: { id: string; offset?: number; line?: number; column?: number; path: string;
    element: ModelElement | null }[];
  /** a compressed input's text, which its lines count in */
  source?: Uint8Array;
  [key: string]: unknown;
}

/** A catalogue entry (`mdlcheck rules -f json`). */
export interface Rule {
  id: string;
  severity: Severity;
  [key: string]: unknown;
}

/** An Error from the module: code says why (a bad option, memory, a model that does not decode). */
export interface MdlcheckError extends Error {
  code: 'EIO' | 'EINTERNAL' | 'EINVAL' | 'ENOMEM' | 'EDECODE';
}

/** Validate one file's bytes: the report entry (an invalid file resolves; look at verdict). */
export function validate(bytes: Bytes, options?: ValidateOptions): Promise<Entry>;
/** The poses of one file; rejects with code EDECODE when it does not decode cleanly. */
export function poses(bytes: Bytes, options?: InputOptions): Promise<Poses>;
/** The decoded model of one file, for a viewer (a file with errors answers too). */
export function model(bytes: Bytes, options?: InputOptions): Promise<Model>;
/** Whether two files hold the same model, within the bounds of their quantization. */
export function compare(a: Bytes, b: Bytes, options?: CompareOptions): Promise<Report>;
/** Convert one file's bytes to another format, proven as `mdlcheck convert` proves it. */
export function convert(bytes: Bytes, options: ConvertOptions): Promise<Conversion>;
/** Repair what `mdlcheck fix` repairs (each rule's `repair` in rules()), proven as a conversion. */
export function fix(bytes: Bytes, options?: InputOptions): Promise<Repair>;
/** The rule catalogue. */
export function rules(): Promise<Rule[]>;
/** The formats the library knows, as its registry describes them. */
export function formats(): Promise<{ name: string; description: string; extensions: string[]; up_axis: 'y' | 'z' }[]>;
/** The mdlcheck version the module was built from. */
export function version(): string;

declare const mdlcheck: {
  validate: typeof validate;
  poses: typeof poses;
  model: typeof model;
  compare: typeof compare;
  convert: typeof convert;
  fix: typeof fix;
  rules: typeof rules;
  formats: typeof formats;
  version: typeof version;
};
export default mdlcheck;
