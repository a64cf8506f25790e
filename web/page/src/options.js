// options.js - the validation options of the page (a subset of validate()'s, web/API.md): read
// from and written to the page's query string, so a link reproduces a report, and to the form.

const LISTS = ['ignore', 'only', 'severity'];
// query parameter -> form control; the names are validate()'s option names
const FIELDS = { profile: 'opt-profile', failOn: 'opt-fail-on', ignore: 'opt-ignore',
  only: 'opt-only', severity: 'opt-severity', maxPerRule: 'opt-max-per-rule', strict: 'opt-strict' };

// Patterns are separated by commas or spaces; a parameter may also repeat.
const split = (values) => values.flatMap((v) => v.split(/[\s,]+/)).filter(Boolean);

// validate()'s options from a query string; what is not set stays the CLI's default.
export function optionsFromQuery(search) {
  const q = new URLSearchParams(search);
  const opts = {};
  for (const key of LISTS) {
    const list = split(q.getAll(key));
    if (list.length) opts[key] = list;
  }
  if (q.get('profile')) opts.profile = q.get('profile');
  if (q.get('failOn')) opts.failOn = q.get('failOn');
  if (q.get('maxPerRule') !== null && q.get('maxPerRule') !== '') opts.maxPerRule = q.get('maxPerRule');
  if (q.get('strict') === '1' || q.get('strict') === 'true') opts.strict = true;
  return opts;
}

// The query string for opts, keeping the parameters that are not options (model=...).
export function queryWithOptions(search, opts) {
  const q = new URLSearchParams(search);
  for (const key of Object.keys(FIELDS)) q.delete(key);
  for (const key of LISTS) if (opts[key] && opts[key].length) q.set(key, opts[key].join(','));
  if (opts.profile) q.set('profile', opts.profile);
  if (opts.failOn) q.set('failOn', opts.failOn);
  if (opts.maxPerRule !== undefined) q.set('maxPerRule', String(opts.maxPerRule));
  if (opts.strict) q.set('strict', '1');
  const s = q.toString();
  return s ? `?${s}` : '';
}

export function optionsToForm(opts, $) {
  $(FIELDS.profile).value = opts.profile || '';
  $(FIELDS.failOn).value = opts.failOn || 'error';
  for (const key of LISTS) $(FIELDS[key]).value = (opts[key] || []).join(', ');
  $(FIELDS.maxPerRule).value = opts.maxPerRule !== undefined ? String(opts.maxPerRule) : '';
  $(FIELDS.strict).checked = !!opts.strict;
}

// The form's options: a field left at the CLI's default sets nothing.
export function optionsFromForm($) {
  const opts = {};
  const profile = $(FIELDS.profile).value.trim();
  if (profile) opts.profile = profile;
  if ($(FIELDS.failOn).value !== 'error') opts.failOn = $(FIELDS.failOn).value;
  for (const key of LISTS) {
    const list = split([$(FIELDS[key]).value]);
    if (list.length) opts[key] = list;
  }
  const max = $(FIELDS.maxPerRule).value.trim();
  if (max !== '') opts.maxPerRule = max;
  if ($(FIELDS.strict).checked) opts.strict = true;
  return opts;
}

// What the options change from the CLI's defaults, in the CLI's words (for the status line).
export function describeOptions(opts) {
  const flags = [];
  for (const key of LISTS) for (const p of opts[key] || []) flags.push(`--${key}=${p}`);
  if (opts.profile) flags.push(`--profile=${opts.profile}`);
  if (opts.failOn) flags.push(`--fail-on=${opts.failOn}`);
  if (opts.maxPerRule !== undefined) flags.push(`--max-per-rule=${opts.maxPerRule}`);
  if (opts.strict) flags.push('--strict');
  return flags.length ? flags.join(' ') : 'the defaults';
}
