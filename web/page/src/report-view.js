// report-view.js - one file's report as HTML: verdict, counts, filters by severity and rule,
// repeats of a rule folded, every diagnostic a button (keyboard: Tab to the list, arrows and
// Home/End in it, Enter to choose), and the files the model names with what became of each.
import { unusableLine } from './resources.js';

export const SEVERITIES = ['fatal', 'error', 'warning', 'info', 'hint'];
const SYMBOL = { fatal: '\u2716\u2716', error: '\u2716', warning: '\u26a0', info: '\u2139', hint: '\u2022' };
const FOLD_AFTER = 3; // a rule's diagnostics beyond the first three go into a <details>

function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (k === 'class') node.className = v;
    else if (k.startsWith('data-') || k.startsWith('aria-') || k === 'role' || k === 'for') node.setAttribute(k, v);
    else node[k] = v;
  }
  for (const c of children) node.append(c);
  return node;
}

export function where(d) {
  if (d.line !== undefined) return `line ${d.line}${d.column ? `:${d.column}` : ''}`;
  if (d.offset !== undefined) return `offset ${d.offset} (0x${d.offset.toString(16)})`;
  return 'whole file';
}

export function diagnosticLabel(d) {
  if (d.folded !== undefined) return `${d.severity.toUpperCase()} ${d.id}: ${d.message}`;
  return `${d.severity.toUpperCase()} ${d.id} at ${where(d)}${d.path ? `, ${d.path}` : ''}: ${d.message}`;
}

function diagnosticButton(d, index, onSelect) {
  const button = el('button', { type: 'button', class: `diag sev-${d.severity}`, 'data-index': String(index),
    'data-rule': d.id, 'aria-label': diagnosticLabel(d) },
  el('span', { class: 'sev', 'aria-hidden': 'true' }, `${SYMBOL[d.severity] || ''} ${d.severity}`),
  el('code', { class: 'rule' }, d.id),
  el('span', { class: 'where' }, d.folded !== undefined ? `+${d.folded} folded` : where(d)),
  el('span', { class: 'path' }, d.path || ''),
  el('span', { class: 'msg' }, d.message));
  button.addEventListener('click', () => onSelect(index));
  return el('li', {}, button);
}

// Each status in words and a symbol, never by colour alone.
const RES_STATUS = { found: '\u2714 found', 'case-mismatch': '\u26a0 found with another letter case',
  missing: '\u2716 missing', outside: '\u2716 outside the files searched (not looked up)',
  unreadable: '\u2716 unusable' };

// The references the model names (entry.resources, present when they were checked), or why they
// were not checked (notChecked).
function referencesSection(entry, notChecked) {
  const section = el('section', { id: 'references', 'aria-labelledby': 'references-title' });
  if (!entry.resources) {
    section.append(el('h3', { id: 'references-title' }, 'Referenced files'),
      el('p', { id: 'references-summary' }, `Not checked: ${notChecked || 'no files were given with the model'}.`));
    return section;
  }
  const res = entry.resources;
  const line = unusableLine(entry);
  section.append(el('h3', { id: 'references-title' }, `Referenced files (${res.length})`),
    el('p', { id: 'references-summary' }, line || (res.length
      ? `All ${res.length} found among the files given.` : 'The model names no file.')));
  if (!res.length) return section;
  const list = el('ul', { id: 'references-list' });
  for (const r of res) {
    const image = r.image ? `, ${r.image}${r.width ? ` ${r.width}\u00d7${r.height}` : ''}` +
      `${r.channels ? `, ${r.channels} channel${r.channels === 1 ? '' : 's'}` : ''}` : '';
    // where it was found, when that is not what the model wrote (the model's folder "." aside)
    const at = r.resolved_path && r.resolved_path.replace(/^(\.\/)+/, '') !== r.ref ? ` \u2192 ${r.resolved_path}` : '';
    list.append(el('li', { class: `ref ref-${r.status}`, 'data-status': r.status },
      el('span', { class: 'ref-status' }, RES_STATUS[r.status] || r.status), ' ',
      el('code', {}, r.ref), `${at} (${r.kind}${image}; ${where(r)}${r.path ? `, ${r.path}` : ''})`));
  }
  section.append(list);
  return section;
}

// Renders into container; filters = { severities: Set, rule: '' | id }; notChecked: why the
// references were not checked, when they were not.
export function renderReport(container, entry, filters, onSelect, onFilter, notChecked) {
  container.replaceChildren();
  const invalid = entry.verdict === 'invalid';
  container.append(el('h2', { id: 'report-title' }, entry.path),
    el('p', { id: 'verdict', class: `verdict ${entry.verdict}` },
      `${invalid ? '\u2716 INVALID' : '\u2714 VALID'}: ${entry.format}${entry.version ? ` ${entry.version}` : ''}` +
      `${entry.compression ? ` (${entry.compression})` : ''}`),
    el('p', { id: 'counts' }, SEVERITIES.map((s) => `${entry.counts[s]} ${s}`).join(', ') +
      (entry.truncated ? ' (list cut by max-issues)' : '')));

  const sevBoxes = el('fieldset', { class: 'filter' }, el('legend', {}, 'Severity'));
  for (const s of SEVERITIES) {
    const box = el('input', { type: 'checkbox', id: `sev-${s}`, checked: filters.severities.has(s) });
    box.addEventListener('change', () => {
      if (box.checked) filters.severities.add(s); else filters.severities.delete(s);
      onFilter();
    });
    sevBoxes.append(el('label', { for: `sev-${s}` }, box, ` ${s} (${entry.counts[s]})`));
  }
  const rules = [...new Set(entry.messages.map((m) => m.id))].sort();
  const ruleSelect = el('select', { id: 'rule-filter' }, el('option', { value: '' }, 'every rule'),
    ...rules.map((r) => el('option', { value: r, selected: r === filters.rule }, r)));
  ruleSelect.addEventListener('change', () => { filters.rule = ruleSelect.value; onFilter(); });
  container.append(el('div', { id: 'filters' }, sevBoxes,
    el('label', { for: 'rule-filter' }, 'Rule ', ruleSelect)));

  const list = el('ol', { id: 'diagnostics', 'aria-label': 'Diagnostics' });
  const shown = entry.messages.map((d, i) => [d, i])
    .filter(([d]) => filters.severities.has(d.severity) && (!filters.rule || d.id === filters.rule));
  const byRule = new Map();
  for (const [d, i] of shown) {
    if (!byRule.has(d.id)) byRule.set(d.id, []);
    byRule.get(d.id).push([d, i]);
  }
  // Diagnostics stay in report order; a rule's repeats past FOLD_AFTER fold under its last
  // visible one.
  const seen = new Map();
  for (const [d, i] of shown) {
    const n = (seen.get(d.id) || 0) + 1;
    seen.set(d.id, n);
    const group = byRule.get(d.id);
    if (n <= FOLD_AFTER) list.append(diagnosticButton(d, i, onSelect));
    if (n === FOLD_AFTER && group.length > FOLD_AFTER) {
      const rest = el('ol', {}, ...group.slice(FOLD_AFTER).map(([dd, ii]) => diagnosticButton(dd, ii, onSelect)));
      list.append(el('li', {}, el('details', { class: 'fold' },
        el('summary', {}, `${group.length - FOLD_AFTER} more ${d.id}`), rest)));
    }
  }
  if (!shown.length) {
    list.append(el('li', { class: 'none' }, entry.messages.length ? 'No diagnostic matches the filters.' :
      'No diagnostics: every rule of the format was checked and passed.'));
  }
  list.addEventListener('keydown', (event) => moveFocus(event, list, 'button.diag'));
  rovingTabStop(list, 'button.diag', list.querySelector('button.diag[aria-pressed="true"]'));
  container.append(list, referencesSection(entry, notChecked));
}

// Renders again without losing the keyboard's place: the control that had the focus (by id, or
// by class and data-index) has it again after render() replaced it.
export function keepFocus(container, render) {
  const a = document.activeElement;
  let key = null;
  if (a && a !== container && container.contains(a)) {
    if (a.id) key = `#${CSS.escape(a.id)}`;
    else if (a.dataset.index !== undefined) key = `${a.tagName}.${a.classList[0]}[data-index="${a.dataset.index}"]`;
  }
  render();
  const again = key && container.querySelector(key);
  if (again) again.focus();
}

// One Tab stop per list (the chosen button, else the first; then the last one focused): Tab
// goes past a list of hundreds of diagnostics in one step, the arrow keys move inside it.
export function rovingTabStop(list, selector, chosen) {
  const buttons = [...list.querySelectorAll(selector)];
  const stop = chosen || buttons[0];
  for (const b of buttons) b.tabIndex = b === stop ? 0 : -1;
  if (list.dataset.roving) return;
  list.dataset.roving = '1';
  list.addEventListener('focusin', (event) => {
    if (!event.target.matches(selector)) return;
    for (const b of list.querySelectorAll(selector)) b.tabIndex = b === event.target ? 0 : -1;
  });
}

// Arrow keys move between the buttons of a list (visible ones only), Home/End to the ends.
export function moveFocus(event, list, selector) {
  const keys = { ArrowDown: 1, ArrowUp: -1, Home: -Infinity, End: Infinity };
  if (!(event.key in keys)) return;
  const items = [...list.querySelectorAll(selector)].filter((b) => b.checkVisibility());
  if (!items.length) return;
  const at = items.indexOf(document.activeElement);
  const step = keys[event.key];
  const next = Math.abs(step) === Infinity ? (step < 0 ? 0 : items.length - 1)
    : Math.min(items.length - 1, Math.max(0, at + step));
  items[next].focus();
  event.preventDefault();
}
