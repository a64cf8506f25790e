// source-view.js - what a diagnostic points at in the file: the source lines around it (text
// formats, with the column marked) or the bytes around its offset (binary formats).

const CONTEXT_LINES = 3;
const ROW = 8; // bytes per row: fits the narrow column

export function sourceExcerpt(text, line, column) {
  const lines = text.split(/\r\n|\r|\n/);
  const first = Math.max(1, line - CONTEXT_LINES);
  const last = Math.min(lines.length, line + CONTEXT_LINES);
  const width = String(last).length;
  const out = [];
  for (let l = first; l <= last; l++) {
    const mark = l === line ? '>' : ' ';
    out.push({ text: `${mark} ${String(l).padStart(width)} | ${lines[l - 1]}`, current: l === line });
    if (l === line && column) out.push({ text: `  ${' '.repeat(width)} | ${' '.repeat(column - 1)}^ column ${column}`, current: true });
  }
  return out;
}

export function hexExcerpt(bytes, offset) {
  const row0 = Math.max(0, Math.floor(offset / ROW) - 3);
  const row1 = Math.min(Math.ceil(bytes.length / ROW), Math.floor(offset / ROW) + 4);
  const out = [];
  for (let r = row0; r < row1; r++) {
    let hex = '';
    let ascii = '';
    for (let k = 0; k < ROW; k++) {
      const at = r * ROW + k;
      if (at >= bytes.length) { hex += '    '; continue; }
      const b = bytes[at];
      const h = b.toString(16).padStart(2, '0');
      hex += at === offset ? `[${h}]` : ` ${h} `;
      ascii += b >= 32 && b < 127 ? String.fromCharCode(b) : '.';
    }
    const current = offset >= r * ROW && offset < (r + 1) * ROW;
    out.push({ text: `${current ? '>' : ' '} ${(r * ROW).toString(16).padStart(8, '0')} ${hex} ${ascii}`, current });
  }
  if (offset >= bytes.length) out.push({ text: `offset ${offset} is past the end of the file (${bytes.length} bytes)`, current: true });
  return out;
}
