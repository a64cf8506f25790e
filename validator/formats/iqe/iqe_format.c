/* iqe_format.c - IQE registration and the decode driver: a counting pass sizes every array,
 * then each line is checked through the command table, then whole-file checks build the model. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "iqe.h"

static const char *const iqe_extensions[] = {".iqe", NULL};
static const char iqe_magic[] = "# Inter-Quake Export";

static int iqe_detect(const unsigned char *data, size_t size)
{
  size_t n = sizeof iqe_magic - 1;
  if (size >= n && !memcmp(data, iqe_magic, n))
    return 100;
  return 0;
}

/* ---- diagnostics ------------------------------------------------------------------------ */

static void emit_v(struct iqe_parser *p, enum rule_index rule, uint32_t line, uint32_t col,
                   const char *path, const char *expected, const char *fmt, va_list ap)
  __attribute__((format(printf, 7, 0)));

/* No array per line: from the line's mark, read on. */
int iqe_line_at(const unsigned char *data, size_t size, const size_t *marks, uint32_t num_lines,
                uint32_t line, struct iqe_line *ln)
{
  size_t pos;
  uint32_t lineno;
  if (line < 1 || line > num_lines || !marks)
    return 0;
  pos = marks[(line - 1) / IQE_LINE_MARK];
  lineno = (line - 1) / IQE_LINE_MARK * IQE_LINE_MARK;
  ln->no = 0;
  while (iqe_line_next(data, size, &pos, &lineno, ln) && ln->no < line)
    ;
  return ln->no == line;
}

int iqe_line_find(const struct iqe_parser *p, uint32_t line, struct iqe_line *ln)
{
  return iqe_line_at(p->data, p->size, p->line_marks, p->num_lines, line, ln);
}

uint32_t iqe_line_col(struct iqe_parser *p, uint32_t line, uint32_t k)
{
  struct iqe_line ln;
  struct iqe_tok t[8];
  uint32_t n;
  if (k >= 8 || !iqe_line_find(p, line, &ln))
    return 1; /* cannot happen: the line was read */
  n = iqe_tokenize_some(&ln, t, k + 1);
  return n > k ? t[k].col : n ? t[0].col : 1;
}

static void emit_v(struct iqe_parser *p, enum rule_index rule, uint32_t line, uint32_t col,
                   const char *path, const char *expected, const char *fmt, va_list ap)
{
  char actual[256];
  struct mdl_loc loc;
  if (!p)
    return; /* a pose computed again from its line (iqe_pose_read): reported while parsed */
  if (!diag_wanted(p->ctx->diag, rule)) {
    /* folded beyond its located repeats: only counted, so nothing is worth formatting */
    loc = loc_text(line, col ? col : 1, NULL);
    diag_emit(p->ctx->diag, rule, &loc, NULL, NULL);
    return;
  }
  if (col == 0) {
    /* a diagnostic about a whole line points at its command */
    struct iqe_line ln;
    col = 1;
    if (iqe_line_find(p, line, &ln)) {
      size_t at = (size_t)((const unsigned char *)ln.s - p->data);
      while (at < p->size && (p->data[at] == ' ' || p->data[at] == '\t')) {
        at++;
        col++;
      }
    }
  }
  loc = loc_text(line, col, "%s", path ? path : "");
  actual[0] = 0;
  if (fmt)
    vsnprintf(actual, sizeof actual, fmt, ap);
  diag_emit(p->ctx->diag, rule, &loc, expected, "%s", actual);
}

void iqe_emit(struct iqe_parser *p, enum rule_index rule, uint32_t line, uint32_t col,
              const char *expected, const char *actual_fmt, ...)
{
  va_list ap;
  va_start(ap, actual_fmt);
  emit_v(p, rule, line, col, NULL, expected, actual_fmt, ap);
  va_end(ap);
}

void iqe_emit_path(struct iqe_parser *p, enum rule_index rule, uint32_t line, uint32_t col,
                   const char *path, const char *expected, const char *actual_fmt, ...)
{
  va_list ap;
  va_start(ap, actual_fmt);
  emit_v(p, rule, line, col, path, expected, actual_fmt, ap);
  va_end(ap);
}

/* ---- argument helpers ------------------------------------------------------------------- */

/* Token text for a message: at most 40 bytes, control bytes such as NUL (and, when escape_high,
 * bytes >= 0x80) as \xNN, so the message shows what the file holds. */
static void text_escape(char *out, size_t cap, const char *s, size_t len, int escape_high)
{
  static const char hex[] = "0123456789abcdef";
  size_t n = 0;
  for (size_t i = 0; i < len && i < 40 && n + 5 < cap; i++) {
    unsigned char c = (unsigned char)s[i];
    if (c < 0x20 || c == 0x7f || (escape_high && c >= 0x80)) {
      out[n++] = '\\';
      out[n++] = 'x';
      out[n++] = hex[c >> 4];
      out[n++] = hex[c & 15];
    } else {
      out[n++] = (char)c;
    }
  }
  if (len > 40 && n + 4 < cap) {
    memcpy(out + n, "...", 3);
    n += 3;
  }
  out[n] = 0;
}

/* A quoted token is a name, never a number: readers' strtod stops at the quote. A NUL byte is
 * named with its column: C readers end the line there, so it is why the value is lost. */
static void not_a_number(struct iqe_parser *p, const struct iqe_line *ln, const struct iqe_tok *t,
                         const char *expected)
{
  char text[200], why[160];
  const char *nul = memchr(t->s, 0, t->len);
  text_escape(text, sizeof text, t->s, t->len, 0);
  if (nul) {
    snprintf(why, sizeof why, "%s; it contains a NUL byte at column %u, where C readers end the line",
             expected, (unsigned)(t->col + (uint32_t)(nul - t->s)));
    expected = why;
  }
  iqe_emit(p, RULE_IQE_NOT_A_NUMBER, ln->no, t->col, expected, "%s%s%s", t->quoted ? "\"" : "",
           text, t->quoted && !t->unterminated ? "\"" : "");
}

/* Offset of the first byte of s that does not belong to a well-formed UTF-8 sequence (no
 * overlong forms, no surrogates, nothing above U+10FFFF), or len. */
static size_t utf8_invalid_at(const unsigned char *s, size_t len)
{
  size_t i = 0;
  while (i < len) {
    unsigned char c = s[i];
    size_t n;
    unsigned char lo = 0x80, hi = 0xbf;
    if (c < 0x80) {
      i++;
      continue;
    }
    if (c >= 0xc2 && c <= 0xdf)
      n = 1;
    else if (c >= 0xe0 && c <= 0xef) {
      n = 2;
      if (c == 0xe0)
        lo = 0xa0;
      else if (c == 0xed)
        hi = 0x9f;
    } else if (c >= 0xf0 && c <= 0xf4) {
      n = 3;
      if (c == 0xf0)
        lo = 0x90;
      else if (c == 0xf4)
        hi = 0x8f;
    } else {
      return i;
    }
    if (len - i <= n || s[i + 1] < lo || s[i + 1] > hi)
      return i;
    for (size_t k = 2; k <= n; k++)
      if (s[i + k] < 0x80 || s[i + k] > 0xbf)
        return i;
    i += n + 1;
  }
  return len;
}

int iqe_arg_real(struct iqe_parser *p, const struct iqe_line *ln, const struct iqe_tok *t,
                 double *out)
{
  if (t->quoted) {
    not_a_number(p, ln, t, "a decimal number");
    *out = 0;
    return -1;
  }
  switch (iqe_parse_real(t->s, t->len, out)) {
  case IQE_NUM_OK:
    return 0;
  case IQE_NUM_NONFINITE:
    iqe_emit(p, RULE_IQE_NON_FINITE, ln->no, t->col, NULL, "%.*s", (int)(t->len > 40 ? 40 : t->len), t->s);
    *out = 0;
    return -1;
  default:
    not_a_number(p, ln, t, "a decimal number");
    *out = 0;
    return -1;
  }
}

int iqe_arg_int(struct iqe_parser *p, const struct iqe_line *ln, const struct iqe_tok *t, long *out)
{
  double d;
  enum iqe_num_status st;
  if (!t->quoted && iqe_parse_int(t->s, t->len, out) == IQE_NUM_OK)
    return 0;
  st = t->quoted ? IQE_NUM_BAD : iqe_parse_real(t->s, t->len, &d);
  if (st == IQE_NUM_NONFINITE)
    iqe_emit(p, RULE_IQE_NON_FINITE, ln->no, t->col, NULL, "%.*s", (int)(t->len > 40 ? 40 : t->len), t->s);
  else if (st == IQE_NUM_OK)
    iqe_emit(p, RULE_IQE_NOT_AN_INTEGER, ln->no, t->col, "a base-10 integer in the 32-bit range",
             "%.*s", (int)(t->len > 40 ? 40 : t->len), t->s);
  else
    not_a_number(p, ln, t, "an integer");
  *out = 0;
  return -1;
}

/* NUL ends the name in every C reader (an error); bytes that are not UTF-8 are a portability
 * warning, as iqe.txt names no encoding. Reported at the offending byte's column. */
static void name_check(struct iqe_parser *p, const struct iqe_line *ln, const struct iqe_tok *t)
{
  char text[200];
  uint32_t col = t->col + (uint32_t)t->quoted; /* the first byte of the name itself */
  const char *nul = memchr(t->s, 0, t->len);
  size_t bad;
  if (nul) {
    text_escape(text, sizeof text, t->s, t->len, 0);
    iqe_emit(p, RULE_IQE_NAME_NUL, ln->no, col + (uint32_t)(nul - t->s), NULL, "%s", text);
    return;
  }
  bad = utf8_invalid_at((const unsigned char *)t->s, t->len);
  if (bad < t->len) {
    text_escape(text, sizeof text, t->s, t->len, 1);
    iqe_emit(p, RULE_IQE_NAME_NOT_UTF8, ln->no, col + (uint32_t)bad, NULL, "%s", text);
  }
}

void iqe_arg_name_check(struct iqe_parser *p, const struct iqe_line *ln,
                        const struct iqe_tok *args, uint32_t nargs)
{
  if (nargs == 0)
    return;
  if (args[0].unterminated)
    iqe_emit(p, RULE_IQE_UNTERMINATED_QUOTE, ln->no, args[0].col, NULL, "\"%.*s",
             (int)(args[0].len > 40 ? 40 : args[0].len), args[0].s);
  name_check(p, ln, &args[0]);
}

uint32_t iqe_arg_name(struct iqe_parser *p, const struct iqe_line *ln,
                      const struct iqe_tok *args, uint32_t nargs)
{
  if (nargs == 0)
    return iqe_name_id(p, "", 0); /* 0, counted as any other name (the table made if need be) */
  iqe_arg_name_check(p, ln, args, nargs);
  return iqe_name_id(p, args[0].s, args[0].len);
}

/* The line offset just past token t (a quoted one: past its closing quote), where the
 * tokenizer goes on from. */
static size_t tok_end(const struct iqe_line *ln, const struct iqe_tok *t)
{
  size_t end = (size_t)(t->s - ln->s) + t->len;
  return t->quoted && !t->unterminated ? end + 1 : end;
}

/* The current line's tokens from line offset `from` (just past a token) into p->far[at..),
 * with the columns and lengths the tokenizer gives reading from the line's start. Return how
 * many were stored. */
static uint32_t far_fill(struct iqe_parser *p, size_t from, uint32_t at)
{
  struct iqe_line sub = *p->line;
  uint32_t n;
  sub.s += from;
  sub.len -= from;
  n = iqe_tokenize_some(&sub, p->far + at, IQE_TOKS - at);
  for (uint32_t k = at; k < at + n; k++)
    p->far[k].col += (uint32_t)from; /* as (uint32_t)(from + offset + 1) */
  if (n)
    p->far_end = tok_end(p->line, &p->far[at + n - 1]);
  return n;
}

const struct iqe_tok *iqe_arg_far(struct iqe_parser *p, uint32_t i)
{
  static const struct iqe_tok none = {"", 0, 0, 0, 0};
  uint32_t t = i + 1; /* the token's number on the line */
  if (!p->line || t >= p->line_toks || p->line_toks <= IQE_TOKS)
    return &none; /* cannot happen: handlers read their nargs values */
  if (p->far_n == 0 || t < p->far_first) {
    /* (again) from the first token not stored in toks */
    p->far_first = IQE_TOKS;
    p->far_n = far_fill(p, tok_end(p->line, &p->toks[IQE_TOKS - 1]), 0);
  }
  while (p->far_n && t >= p->far_first + p->far_n) {
    /* slide on, the window's last token kept first: a read one token back is still there */
    uint32_t got;
    p->far[0] = p->far[p->far_n - 1];
    p->far_first += p->far_n - 1;
    got = far_fill(p, p->far_end, 1);
    p->far_n = 1 + got;
    if (!got)
      return &none; /* cannot happen: the line has token t */
  }
  return p->far_n ? &p->far[t - p->far_first] : &none;
}

/* ---- passes ----------------------------------------------------------------------------- */

/* Pass 1: count commands, face triangles and vb pairs. */
static void count_pass(struct iqe_parser *p)
{
  size_t pos = 0;
  uint32_t lineno = 0;
  struct iqe_line ln;
  for (;;) {
    struct iqe_tok t;
    uint32_t n;
    const struct iqe_command *c;
    size_t len;
    int fast = pos < p->size ? iqe_count_line((const char *)p->data + pos, p->size - pos, &len) : -1;
    if (fast >= 0) {
      /* the usual line: its command is its first two bytes */
      n = (uint32_t)fast;
      t.s = (const char *)p->data + pos;
      t.len = 2;
      t.quoted = 0;
      ln.len = len;
      pos += len + 1;
      p->num_lines = ++lineno;
    } else {
      if (!iqe_line_next(p->data, p->size, &pos, &lineno, &ln))
        break;
      n = iqe_count_tokens(&ln, &t);
      p->num_lines = ln.no;
    }
    if (n == 0 || iqe_tok_is_comment(&t))
      continue;
    c = t.quoted ? NULL : iqe_command_find(t.s, t.len); /* as the checking pass decides */
    if (!c) {
      p->unknown_cap++;
      continue;
    }
    p->counts[c->id]++;
    if (c->id == CMD_JOINT && ln.len >= 9)
      p->joint_long++;
    if (c->id == CMD_ANIMATION && ln.len >= 13)
      p->anim_long++;
    if (c->id <= CMD_VS) { /* the attribute commands, in enum iqe_attr's order */
      struct iqe_attr_arr *ar = &p->attr[c->id - CMD_VP];
      if (n - 1 > ar->given)
        ar->given = n - 1;
      ar->bytes += ln.len + 1;
    }
    if (c->id == CMD_VERTEXARRAY && !p->va_not_float) {
      /* the declared component format: a float array turns every value into a float, so only
       * another format (double, the integers, half, whose rounding from double and from float
       * can differ) needs the values in double */
      struct iqe_tok tk[3];
      p->va_not_float = fast >= 0 || iqe_tokenize_some(&ln, tk, 3) < 3 || tk[2].len != 5 ||
                        strncasecmp(tk[2].s, "float", 5) != 0;
    }
    if (c->id == CMD_FA || c->id == CMD_FM)
      p->tri_cap += n > 3 ? n - 3 : 0;
    else if (c->id == CMD_VB)
      p->vb_pairs += n / 2;
    else if (c->id == CMD_COMMENT)
      break;
  }
}

static int alloc_arrays(struct iqe_parser *p)
{
  static const uint32_t strides[ATTR_COUNT] = {4, 2, 3, 7, 0, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 1};
  static const enum iqe_cmd cmds[ATTR_COUNT] = {
    CMD_VP, CMD_VT, CMD_VN, CMD_VX, CMD_VB, CMD_VC, CMD_V0, CMD_V1, CMD_V2, CMD_V3, CMD_V4,
    CMD_V5, CMD_V6, CMD_V7, CMD_V8, CMD_V9, CMD_VS};
  struct arena *a = &p->scratch;
  uint32_t frames_cap = p->counts[CMD_FRAME] + p->counts[CMD_ANIMATION];
  uint32_t poses_cap = p->counts[CMD_PQ] + p->counts[CMD_PM] + p->counts[CMD_PA];
  uint32_t faces = p->counts[CMD_FA] + p->counts[CMD_FM];
  int want_tris;
  int keep = p->keep_geo; /* a model with its geometry is built (iqe_model_build) */
  int keep_anim = p->ctx->keep_frames; /* a model with its skeleton and animations */

  for (int i = 0; i < ATTR_COUNT; i++) {
    struct iqe_attr_arr *ar = &p->attr[i];
    uint32_t full = strides[i] ? strides[i] : 1;
    /* no line gave a value: every component is the default, nothing is stored */
    ar->stride = ar->given < full ? ar->given : full;
    if (i == ATTR_VX)
      ar->stride = ar->given >= 5 ? 7 : ar->stride > 4 ? 4 : ar->stride; /* [3]: w, or NAN */
    if (i == ATTR_VB || i == ATTR_VS)
      ar->stride = 1;
    ar->cap = p->counts[cmds[i]];
    ar->defaults = iqe_commands[cmds[i]].defaults;
    /* values nothing reads are not stored (v and f NULL): vb's (its pairs hold them), and vc's
     * without a model (colours go only into the model; no check reads them). Colours stay
     * double: they are stored as bytes, and a float can round x * 255 the other way (0.3 -> 77,
     * not 76) */
    int unstored = i == ATTR_VB || (i == ATTR_VC && !keep);
    int dbl = i == ATTR_VC || p->va_not_float ||
              ar->bytes * 2 >= (uint64_t)ar->cap * (ar->stride * sizeof(double) + 4);
    /* a value per component (and the line's byte) over 1.6 x the lines' text: packed */
    int packed = !unstored && i != ATTR_VS && ar->stride > 0 &&
                 (uint64_t)ar->cap * 5 * (ar->stride * (dbl ? 8 : 4) + 1) > 8 * ar->bytes;
    if (unstored)
      ;
    else if (packed) {
      ar->pk_double = dbl;
      ar->pk = arena_alloc_lazy(a, (size_t)ar->cap * ar->stride + 1, dbl ? sizeof(double) : sizeof(float));
      ar->pk_n = arena_calloc(a, (size_t)ar->cap / 2 + IQE_LINES_MARK / 2, 1); /* whole words */
      ar->pk_mark = arena_calloc(a, (size_t)ar->cap / IQE_LINES_MARK + 1, sizeof *ar->pk_mark);
      if (!ar->pk || !ar->pk_n || !ar->pk_mark)
        return -1;
    } else if (dbl)
      ar->v = arena_calloc(a, (size_t)ar->cap + 1, ar->stride * sizeof(double));
    else
      ar->f = arena_calloc(a, (size_t)ar->cap + 1, ar->stride * sizeof(float));
    ar->lines.step = arena_calloc(a, (size_t)ar->cap + 1, 1);
    ar->lines.mark = arena_calloc(a, (size_t)ar->cap / IQE_LINES_MARK + 1, sizeof *ar->lines.mark);
    if ((!ar->v && !ar->f && !ar->pk && !unstored) || !ar->lines.step || !ar->lines.mark)
      return -1;
  }
  if (!p->by_line)
    p->line_marks = arena_calloc(a, (size_t)p->num_lines / IQE_LINE_MARK + 2, sizeof *p->line_marks);
  p->unknown_lines.step = arena_calloc(a, (size_t)p->unknown_cap + 1, 1);
  p->unknown_lines.mark = arena_calloc(a, (size_t)p->unknown_cap / IQE_LINES_MARK + 1, sizeof *p->unknown_lines.mark);
  /* what only the model reads is kept only when a model is built (validation drops it) */
  p->pairs_cap = keep ? p->vb_pairs : IQE_VB_KEPT;
  p->pairs = arena_calloc(a, (size_t)p->pairs_cap + 1, sizeof *p->pairs);
  if (keep) {
    p->vb_first = arena_calloc(a, (size_t)p->counts[CMD_VB] + 1, sizeof *p->vb_first);
    p->vb_num = arena_calloc(a, (size_t)p->counts[CMD_VB] + 1, sizeof *p->vb_num);
    if (!p->vb_first || !p->vb_num)
      return -1;
  }
  /* the poses in the model's arena: its rests are the base poses where they are (anim_build),
   * the spare last one the identity of the joints without a base pose */
  p->poses_cap = poses_cap;
  if (p->by_line) {
    /* poses without animations: the joints, the poses' lines and the line tables the walk
     * reads, in the model's arena (iqe_poses.c) */
    struct arena *ma = &p->m->arena;
    p->line_marks = arena_calloc(ma, (size_t)p->num_lines / IQE_LINE_MARK + 2, sizeof *p->line_marks);
    p->joints = arena_calloc(ma, (size_t)p->counts[CMD_JOINT] + 1, sizeof *p->joints);
    p->joint_lines.step = arena_calloc(ma, (size_t)p->counts[CMD_JOINT] + 1, 1);
    p->joint_lines.mark = arena_calloc(ma, (size_t)p->counts[CMD_JOINT] / IQE_LINES_MARK + 1, sizeof *p->joint_lines.mark);
    p->pose_lines = arena_calloc(ma, (size_t)poses_cap + 1, sizeof *p->pose_lines);
  } else if (keep_anim && (!(p->pose_trs = arena_calloc(&p->m->arena, (size_t)poses_cap + 1, sizeof *p->pose_trs)) ||
                           !(p->frame_kept = arena_calloc(a, (size_t)frames_cap + 1, sizeof *p->frame_kept))))
    return -1;
  /* face triangles, sized by the corners counted and filled only as far as faces are good
   * (lazy: a long face of bad indexes costs nothing here); validation reads them only for the
   * tangent check, which needs texture coordinates and no vx */
  want_tris = keep || (p->counts[CMD_VT] && !p->counts[CMD_VX]);
  p->tris = keep ? arena_alloc_lazy(a, (size_t)p->tri_cap + 1, 3 * sizeof *p->tris) : NULL;
  if (want_tris && !keep) {
    /* a face of n corners gives n - 2 triangles, counted as tri_cap */
    p->corner_cap = (size_t)p->tri_cap + 2 * (size_t)faces;
    p->corners = arena_alloc_lazy(a, p->corner_cap + 1, sizeof *p->corners);
    p->corner_start = arena_calloc(a, p->corner_cap / 8 + 1, 1);
    if (!p->corners || !p->corner_start)
      return -1;
  }
  if (p->m->want_spans && !(p->tri_line = arena_alloc_lazy(a, (size_t)p->tri_cap + 1, sizeof *p->tri_line)))
    p->m->spans_failed = 1;
  /* the k-th fs pairs with the k-th face command: only pairs are compared and smoothed, so only
   * the first min(fs, faces) of each are kept (a file of "fs" lines and no face keeps none),
   * and validation writes only the half of a pair read first (lazy: what is not written costs
   * nothing) */
  p->fs_pairs = p->counts[CMD_FS] < faces ? p->counts[CMD_FS] : faces;
  p->face_arity = arena_alloc_lazy(a, (size_t)p->fs_pairs + 1, sizeof *p->face_arity);
  p->face_line = arena_alloc_lazy(a, (size_t)p->fs_pairs + 1, sizeof *p->face_line);
  p->fs_arity = arena_alloc_lazy(a, (size_t)p->fs_pairs + 1, sizeof *p->fs_arity);
  p->fs_line = arena_alloc_lazy(a, (size_t)p->fs_pairs + 1, sizeof *p->fs_line);
  /* lazy: validation writes only the records it keeps (mesh_open) */
  p->meshes = arena_alloc_lazy(a, (size_t)p->counts[CMD_MESH] + 2, sizeof *p->meshes);
  if (faces == 0 && !(p->spans = arena_alloc_lazy(a, (size_t)p->counts[CMD_MESH] + 2, sizeof *p->spans)))
    return -1;
  if (!p->by_line) {
    p->joints = arena_calloc(a, (size_t)p->counts[CMD_JOINT] + 1, sizeof *p->joints);
    p->joint_lines.step = arena_calloc(a, (size_t)p->counts[CMD_JOINT] + 1, 1);
    p->joint_lines.mark = arena_calloc(a, (size_t)p->counts[CMD_JOINT] / IQE_LINES_MARK + 1, sizeof *p->joint_lines.mark);
  }
  if (iqe_name_set_alloc(&p->joint_set, 0, p->counts[CMD_JOINT], p->joint_long) < 0 ||
      iqe_name_set_alloc(&p->anim_set, 1, p->counts[CMD_ANIMATION], p->anim_long) < 0)
    return -1;
  if (!p->by_line)
    p->pose_lines = arena_calloc(a, (size_t)poses_cap + 1, sizeof *p->pose_lines);
  p->frames = arena_calloc(p->by_line ? &p->m->arena : a, (size_t)frames_cap + 1, sizeof *p->frames);
  /* poses read each animation from its line and its frame count here (iqe_poses.c), and take
   * its framerate and loop from their lines: no play record */
  p->anims = arena_calloc(p->by_line ? &p->m->arena : a, (size_t)p->counts[CMD_ANIMATION] + 1, sizeof *p->anims);
  if (keep_anim && !p->by_line &&
      !(p->anim_play = arena_calloc(a, (size_t)p->counts[CMD_ANIMATION] + 1, sizeof *p->anim_play)))
    return -1;
  if (!p->line_marks || !p->unknown_lines.step || !p->unknown_lines.mark || !p->pairs ||
      (!p->tris && keep) ||
      !p->face_arity || !p->face_line || !p->fs_arity || !p->fs_line || !p->meshes || !p->joints ||
      !p->joint_lines.step || !p->joint_lines.mark || !p->pose_lines || !p->frames ||
      !p->anims)
    return -1;
  return 0;
}

static void header_check(struct iqe_parser *p)
{
  size_t n = sizeof iqe_magic - 1;
  if (p->size >= n && !memcmp(p->data, iqe_magic, n))
    return;
  {
    const unsigned char *nl = p->size ? memchr(p->data, '\n', p->size) : NULL, *cr;
    size_t len = nl ? (size_t)(nl - p->data) : p->size;
    if (len && (cr = memchr(p->data, '\r', len)) != NULL)
      len = (size_t)(cr - p->data); /* CR LF or a lone CR ends the line too */
    if (len > 40)
      len = 40;
    if (p->size == 0)
      iqe_emit(p, RULE_IQE_HEADER, 1, 1, "'# Inter-Quake Export'", "%s", "empty");
    else
      iqe_emit(p, RULE_IQE_HEADER, 1, 1, "'# Inter-Quake Export'", "'%.*s'", (int)len,
               (const char *)p->data);
  }
}

/* Parse the values of a bounded REALS command and report count problems. */
static void dispatch(struct iqe_parser *p, const struct iqe_command *c, const struct iqe_line *ln,
                     const struct iqe_tok *args, uint32_t nargs)
{
  double vals[IQE_MAX_VALUES];
  uint32_t given = nargs, max = c->max_args;
  const double *pv = NULL;

  if (max != IQE_UNBOUNDED && nargs > max) {
    char why[64];
    snprintf(why, sizeof why, "%s takes at most %u", c->name, (unsigned)max);
    iqe_emit(p, RULE_IQE_SURPLUS_VALUES, ln->no, args[max].col, why, "%.*s",
             (int)(args[max].len > 40 ? 40 : args[max].len), args[max].s);
    given = max;
  }
  if (c->args == ARGS_REALS && max != IQE_UNBOUNDED) {
    for (uint32_t i = 0; i < max; i++)
      vals[i] = c->defaults[i];
    for (uint32_t i = 0; i < given; i++)
      if (iqe_arg_real(p, ln, &args[i], &vals[i]) < 0)
        vals[i] = c->defaults[i];
    pv = vals;
  }
  if (given < c->min_args) {
    char why[96];
    const struct iqe_tok *last = nargs ? &args[nargs - 1] : args - 1; /* args - 1: the command */
    uint32_t col = last->col + last->len; /* just past the last value */
    snprintf(why, sizeof why, "%s needs at least %u", c->name, (unsigned)c->min_args);
    iqe_emit(p, RULE_IQE_TOO_FEW_VALUES, ln->no, col, why, "%u", (unsigned)given);
  }
  c->handle(p, ln, args, given, pv, given);
}

/* The usual line at pos, a command taking a bounded list of numbers with all of them well
 * formed (vp vn vx pq ...): read in one pass, line end included, and handed to its handler as
 * dispatch would. Return 0 when the line takes the general path (which reports what is wrong
 * with it), else 1 with *ln the line. */
static int fast_reals(struct iqe_parser *p, size_t pos, uint32_t lineno, struct iqe_line *ln)
{
  const char *s = (const char *)p->data + pos;
  const struct iqe_command *c;
  double vals[IQE_MAX_VALUES];
  size_t len;
  int n;
  if (p->size - pos < 3 || !(c = iqe_command_find(s, 2)) || c->args != ARGS_REALS ||
      c->max_args == IQE_UNBOUNDED)
    return 0;
  n = iqe_lex_reals(s, p->size - pos, &len, p->toks, IQE_TOKS, c->max_args, vals);
  if (n < (int)c->min_args)
    return 0;
  ln->s = s;
  ln->len = len;
  ln->no = lineno;
  ln->next = pos + len < p->size ? pos + len + 1 : p->size;
  ln->lone_cr = 0;
  p->line = NULL; /* a bounded command: nothing is read past toks */
  if (ln->no <= p->num_lines && (ln->no - 1) % IQE_LINE_MARK == 0)
    p->line_marks[(ln->no - 1) / IQE_LINE_MARK] = pos;
  for (uint32_t i = (uint32_t)n; i < c->max_args; i++)
    vals[i] = c->defaults[i];
  c->handle(p, ln, p->toks + 1, (uint32_t)n, vals, (uint32_t)n);
  return 1;
}

/* --max-memory: what the upper-bound tables hold, charged every BOUND_STEP bytes of text */
#define BOUND_STEP (4u << 20)

static int bound_check(struct iqe_parser *p)
{
  if (arena_bound_check(&p->scratch) < 0 || arena_bound_check(&p->m->arena) < 0) {
    p->scratch.failed = 1; /* said as the bound's refusal: MDL-MEM-002 */
    return -1;
  }
  return 0;
}

static void check_pass(struct iqe_parser *p)
{
  size_t pos = 0, next_check = BOUND_STEP;
  uint32_t lineno = 0, cr_lines = 0, cr_line = 0, cr_col = 0;
  struct iqe_line ln;
  for (;;) {
    uint32_t n;
    const struct iqe_command *c;
    if (pos >= next_check) {
      if (bound_check(p) < 0)
        return; /* not checked to the end: no verdict (the pipeline says why) */
      next_check = pos + BOUND_STEP;
    }
    if (pos < p->size && fast_reals(p, pos, lineno + 1, &ln)) {
      lineno++;
      pos = ln.next;
      continue;
    }
    if (!iqe_line_next(p->data, p->size, &pos, &lineno, &ln))
      break;
    if (ln.lone_cr && cr_lines++ == 0) {
      cr_line = ln.no;
      cr_col = (uint32_t)(ln.len < UINT32_MAX ? ln.len + 1 : UINT32_MAX);
    }
    if (ln.len > 511)
      iqe_emit(p, RULE_IQE_LINE_TOO_LONG, ln.no, 512, "511", "%zu", ln.len);
    if (ln.no <= p->num_lines && (ln.no - 1) % IQE_LINE_MARK == 0)
      p->line_marks[(ln.no - 1) / IQE_LINE_MARK] = (size_t)((const unsigned char *)ln.s - p->data);
    /* every token is counted, the first IQE_TOKS are kept (iqe_arg reads on past them) */
    n = iqe_tokenize(&ln, p->toks, IQE_TOKS);
    if (n == 0 || iqe_tok_is_comment(&p->toks[0]))
      continue;
    c = p->toks[0].quoted ? NULL : iqe_command_find(p->toks[0].s, p->toks[0].len);
    if (!c) {
      iqe_emit(p, RULE_IQE_UNKNOWN_COMMAND, ln.no, p->toks[0].col, NULL, "%.*s",
               (int)(p->toks[0].len > 40 ? 40 : p->toks[0].len), p->toks[0].s);
      if (p->num_unknown < p->unknown_cap &&
          iqe_lines_put(&p->unknown_lines, p->num_unknown++, ln.no) < 0)
        p->scratch.failed = 1; /* said as the scratch arena's failure: MDL-MEM-001 */
      continue;
    }
    if (c->id == CMD_COMMENT) {
      /* the rest of the file, verbatim (iqe.txt "Comment section") */
      if (n > 1)
        iqe_emit(p, RULE_IQE_SURPLUS_VALUES, ln.no, p->toks[1].col,
                 "comment takes nothing on its line", "%.*s",
                 (int)(p->toks[1].len > 40 ? 40 : p->toks[1].len), p->toks[1].s);
      p->comment = p->data + ln.next;
      p->comment_size = p->size - ln.next;
      break;
    }
    p->line = &ln;
    p->line_toks = n;
    p->far_n = 0;
    dispatch(p, c, &ln, p->toks + 1, n - 1);
    p->line = NULL;
  }
  if (bound_check(p) < 0)
    return;
  /* once per file, at the first one: a CR-only file would otherwise say it thousands of times */
  if (cr_lines)
    iqe_emit(p, RULE_IQE_LONE_CR, cr_line, cr_col, NULL, "%u", (unsigned)cr_lines);
}

static int iqe_decode(struct decode_ctx *ctx, struct model *m)
{
  struct iqe_parser p;
  int rc;

  memset(&p, 0, sizeof p);
  p.ctx = ctx;
  p.m = m;
  p.keep_geo = ctx->keep_frames && !ctx->skeleton_only;
  p.size = ctx->in.size;
  p.data = p.size ? reader_ptr(&ctx->in, 0, p.size) : (const unsigned char *)"";
  arena_init(&p.scratch);
  /* the line tables count against --max-memory as the model does; those sized by the count
   * pass's upper bounds (a mesh record per `mesh` line, kept only when a check reads it) by the
   * pages written (check_pass's arena_bound_check) */
  p.scratch.bound = ctx->bound;
  p.scratch.lazy_resident = 1;
  m->arena.lazy_resident = 1;

  header_check(&p);
  count_pass(&p);
  /* poses: joints walked and poses computed from their lines as the output reads them
   * (iqe_poses.c), frames too where the output reads them one at a time (frames_lazy) */
  p.by_line = ctx->keep_frames && ctx->skeleton_only &&
              (ctx->frames_lazy || p.counts[CMD_FRAME] + p.counts[CMD_ANIMATION] == 0);
  if (alloc_arrays(&p) < 0) {
    diag_out_of_memory(ctx->diag, "the iqe line tables");
    arena_free(&p.scratch);
    iqe_names_free(&p.names);
    for (int i = 0; i < ATTR_COUNT; i++)
      free(p.attr[i].lines.far);
    free(p.unknown_lines.far);
    free(p.joint_lines.far);
    iqe_name_set_free(&p.joint_set);
  iqe_name_set_free(&p.anim_set);
    return -1;
  }
  check_pass(&p);
  /* the spec's revisions: 2010-04-20, and 2012-01-11 which added `vx` */
  snprintf(ctx->version, sizeof ctx->version, "%s", p.counts[CMD_VX] ? "2012" : "2010");
  iqe_check_finish(&p);
  rc = iqe_model_build(&p);
  (void)bound_check(&p); /* what the model's build wrote in its tables */
  if (p.scratch.failed) {
    diag_out_of_memory(ctx->diag, "an iqe check"); /* the file was not checked to the end */
    rc = -1;
  }
  arena_free(&p.scratch);
  iqe_names_free(&p.names);
  for (int i = 0; i < ATTR_COUNT; i++)
    free(p.attr[i].lines.far);
  free(p.unknown_lines.far);
  free(p.joint_lines.far);
  iqe_name_set_free(&p.joint_set);
  iqe_name_set_free(&p.anim_set);
  free(p.idx_buf);
  return rc;
}

extern const struct format_locator iqe_locator;

const struct mdl_format iqe_format = {
  .name = "iqe", /* the registry and the rule catalogue (rules_gen.c) point here */
  .description = "Inter-Quake Export (text)",
  .extensions = iqe_extensions,
  .text = 1,
  .precision = FMT_PRECISION_PRINTED,
  .up_axis = "z",
  .detect = iqe_detect,
  .decode = iqe_decode,
  .write = iqe_write,
  .locator = &iqe_locator,
};
