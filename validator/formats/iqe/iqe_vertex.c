/* iqe_vertex.c - vertex attribute commands (vp vt vn vx vb vc v0-v9 vs) and `vertexarray`
 * (iqe.txt "Vertex attributes", "Vertex arrays"). Arrays are checked to stay in step. */
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "iqe.h"

static const char *const attr_names[ATTR_COUNT] = {
  "vp", "vt", "vn", "vx", "vb", "vc", "v0", "v1", "v2", "v3", "v4", "v5", "v6", "v7", "v8", "v9", "vs"
};

uint32_t iqe_vertex_count(const struct iqe_parser *p)
{
  uint32_t n = 0;
  if (p->attr[ATTR_VP].count)
    return p->attr[ATTR_VP].count;
  for (int i = 0; i < ATTR_COUNT; i++)
    if (p->attr[i].count > n)
      n = p->attr[i].count;
  return n;
}

/* Vertices whose vp comes before `line` (the vp lines ascend). */
static uint32_t vp_before(const struct iqe_parser *p, uint32_t line)
{
  return iqe_lines_before(&p->attr[ATTR_VP].lines, p->attr[ATTR_VP].count, line);
}

static uint32_t vp_line(const struct iqe_parser *p, uint32_t k)
{
  return iqe_lines_get(&p->attr[ATTR_VP].lines, k);
}

/* How many elements of array i sit after their vertex's vp (fit[1]: element k has k + 1 vp
 * before it) or before it (fit[0]: k vp before it). Return 1 when all sit after the same
 * number of vp, none or all: a block, not interleaved. */
static int layout_fit(const struct iqe_parser *p, int i, uint32_t n, uint32_t fit[2])
{
  const struct iqe_attr_arr *a = &p->attr[i];
  uint32_t first = vp_before(p, iqe_lines_get(&a->lines, 0));
  int block = first == 0 || first == n;
  for (uint32_t k = 0; k < a->count; k++) {
    uint32_t c = vp_before(p, iqe_lines_get(&a->lines, k));
    fit[1] += c == k + 1;
    fit[0] += c == k;
    block = block && c == first;
  }
  return block;
}

/* The first unknown command strictly between lines lo and hi, or 0: a mistyped command there
 * is the likely reason an array left step, so the mismatch is reported at it. */
static uint32_t unknown_between(const struct iqe_parser *p, uint32_t lo, uint32_t hi)
{
  uint32_t a, line;
  if (lo == UINT32_MAX)
    return 0;
  a = iqe_lines_before(&p->unknown_lines, p->num_unknown, lo + 1); /* those at lo or before */
  if (a >= p->num_unknown)
    return 0;
  line = iqe_lines_get(&p->unknown_lines, a);
  return line < hi ? line : 0;
}

static void length_report(struct iqe_parser *p, int i, uint32_t line, uint32_t typo,
                          const char *what)
{
  char expected[96];
  snprintf(expected, sizeof expected, "every vertex has one %s when any has (%u vertices)",
           attr_names[i], iqe_vertex_count(p));
  if (typo)
    iqe_emit(p, i == ATTR_VS ? RULE_IQE_SMOOTHING_INDEX_PARTIAL : RULE_IQE_ARRAY_LENGTH, typo, 0,
             expected, "%s (line %u; this unknown command may be the missing line)", what, line);
  else
    iqe_emit(p, i == ATTR_VS ? RULE_IQE_SMOOTHING_INDEX_PARTIAL : RULE_IQE_ARRAY_LENGTH, line, 0,
             expected, "%s", what);
}

/* Array i's count differs from the n vertices: report where it leaves step with the vp lines.
 * Interleaved, element k comes after vertex k's vp or before it: the complete arrays' layout
 * decides which, else whether the file's first vertex line is a vp, so a vertex lacking the
 * attribute is named at its vp and a surplus element at its own line. A block is reported
 * at its last line. An unknown command where the line went missing is named instead. */
static void length_locate(struct iqe_parser *p, int i, uint32_t n)
{
  const struct iqe_attr_arr *a = &p->attr[i];
  uint32_t fit[2] = {0, 0}, all[2] = {0, 0}, d, end = UINT32_MAX;
  int block = n == 0 || layout_fit(p, i, n, fit);
  char what[128];
  if (block) {
    /* a long block at its first surplus line; a short one at its end, or at a mistyped line */
    uint32_t nv = iqe_vertex_count(p);
    snprintf(what, sizeof what, "%u %s lines", a->count, attr_names[i]);
    if (a->count > nv)
      length_report(p, i, iqe_lines_get(&a->lines, nv), 0, what);
    else
      length_report(p, i, a->last_line,
                    unknown_between(p, a->first_line > 2 ? a->first_line - 2 : 0, a->last_line + 2),
                    what);
    return;
  }
  for (int j = 1; j < ATTR_COUNT; j++)
    if (p->attr[j].count == n)
      layout_fit(p, j, n, all);
  if (all[0] == all[1]) {
    /* no complete array to go by: groups start with their vp when the first one does */
    uint32_t first_vertex_line = UINT32_MAX;
    for (int j = 1; j < ATTR_COUNT; j++)
      if (p->attr[j].count && p->attr[j].first_line < first_vertex_line)
        first_vertex_line = p->attr[j].first_line;
    all[1] = vp_line(p, 0) < first_vertex_line;
    all[0] = !all[1];
  }
  d = all[1] >= all[0];
  for (uint32_t k = 0; k <= a->count; k++) {
    uint32_t c = k < a->count ? vp_before(p, iqe_lines_get(&a->lines, k)) : n + d;
    if (k == a->count && k >= n)
      break;
    if (c > k + d) {
      /* vertex k has none: its group runs from its vp to the next (before it, if d = 0) */
      uint32_t lo = d ? vp_line(p, k) : k ? vp_line(p, k - 1) : 0;
      uint32_t hi = d ? (k + 1 < n ? vp_line(p, k + 1) : end) : vp_line(p, k);
      snprintf(what, sizeof what, "vertex %u (vp at line %u) has no %s", k, vp_line(p, k),
               attr_names[i]);
      length_report(p, i, vp_line(p, k), unknown_between(p, lo, hi), what);
      return;
    }
    if (c < k + d || k >= n) {
      /* a second one for a vertex: the vp between them (after it, if d = 0) went missing */
      uint32_t lo = d ? (k ? iqe_lines_get(&a->lines, k - 1) : 0) : iqe_lines_get(&a->lines, k);
      uint32_t hi = d ? iqe_lines_get(&a->lines, k) : (k + 1 < a->count ? iqe_lines_get(&a->lines, k + 1) : end);
      snprintf(what, sizeof what, "this %s belongs to no vertex of its own", attr_names[i]);
      length_report(p, i, iqe_lines_get(&a->lines, k), unknown_between(p, lo, hi), what);
      return;
    }
  }
  /* not reached: counts differ, so some element is out of step */
  snprintf(what, sizeof what, "%u %s lines", a->count, attr_names[i]);
  length_report(p, i, a->last_line, 0, what);
}

/* Both vx forms in one file: reported at the first line of the rarer form (the later one on a
 * tie), where the exporter most likely slipped. */
static void tangent_forms_check(struct iqe_parser *p)
{
  const uint32_t *n = p->vx_count, *first = p->vx_first_line;
  int odd;
  char other[16];
  if (!n[0] || !n[1])
    return;
  odd = n[0] != n[1] ? n[0] > n[1] : first[1] > first[0];
  snprintf(other, sizeof other, "%u", first[!odd]);
  iqe_emit(p, RULE_IQE_TANGENT_FORMS_MIXED, first[odd], p->vx_first_col[odd], other, "%s",
           odd ? "6" : "at most 4");
}

void iqe_vertex_check_finish(struct iqe_parser *p)
{
  uint32_t n = iqe_vertex_count(p);
  if (n && !p->attr[ATTR_VP].count) {
    /* vertices without positions: the IQM they compile to has none either (IQM R18) */
    for (int i = 0; i < ATTR_COUNT; i++)
      if (p->attr[i].count == n) {
        iqe_emit(p, RULE_IQE_VERTICES_WITHOUT_POSITION, p->attr[i].first_line, 1,
                 "a vp line for each vertex", "%u vertices from %s lines, no vp", n, attr_names[i]);
        break;
      }
  }
  for (int i = 0; i < ATTR_COUNT; i++)
    if (p->attr[i].count != 0 && p->attr[i].count != n)
      length_locate(p, i, p->attr[ATTR_VP].count);
  tangent_forms_check(p);
}

static struct iqe_attr_arr *attr_append(struct iqe_parser *p, int i, uint32_t line)
{
  struct iqe_attr_arr *a = &p->attr[i];
  if (a->count >= a->cap)
    return NULL; /* cannot happen: the counting pass sized it */
  if (a->count == 0)
    a->first_line = line;
  if (iqe_lines_put(&a->lines, a->count, line) < 0)
    p->scratch.failed = 1; /* said as the scratch arena's failure: MDL-MEM-001 */
  a->last_line = line;
  a->count++;
  return a;
}

static int attr_of(const struct iqe_tok *cmd)
{
  switch (cmd->s[1]) {
  case 'p': return ATTR_VP;
  case 't': return ATTR_VT;
  case 'n': return ATTR_VN;
  case 'x': return ATTR_VX;
  case 'c': return ATTR_VC;
  case 's': return ATTR_VS;
  default: return ATTR_V0 + (cmd->s[1] - '0');
  }
}

/* The largest magnitude the attribute's storage keeps finite: float and half arrays (declared
 * by `vertexarray`, or float by default) turn a larger finite double into infinity; integer
 * formats clamp. 0: no limit. */
static double storage_limit(const struct iqe_parser *p, int attr)
{
  static const int std_slot[ATTR_VC + 1] = {0, 1, 2, 3, -1, 6};
  int slot = attr <= ATTR_VC ? std_slot[attr] : attr <= ATTR_V9 ? 7 + (attr - ATTR_V0) : -1;
  uint32_t fmt;
  if (slot < 0)
    return 0;
  if (p->layout[slot].declared && p->layout[slot].format < VF_COUNT)
    fmt = p->layout[slot].format;
  else
    fmt = slot == 6 ? VF_UBYTE : VF_FLOAT;
  return fmt == VF_FLOAT ? FLT_MAX : fmt == VF_HALF ? 65519.0 : 0;
}

static void storage_check(struct iqe_parser *p, const struct iqe_line *ln, const struct iqe_tok *args,
                          int attr, const double *vals, uint32_t given)
{
  double limit = storage_limit(p, attr);
  if (limit == 0)
    return;
  for (uint32_t k = 0; k < given && k < IQE_MAX_VALUES; k++)
    if (isfinite(vals[k]) && fabs(vals[k]) > limit)
      iqe_emit(p, RULE_IQE_NON_FINITE, ln->no, args[k].col, NULL,
               "%g (beyond the %s range this attribute is stored in)", vals[k],
               limit == FLT_MAX ? "32-bit float" : "half-float");
}

void iqe_vertex_attr(struct iqe_parser *p, const struct iqe_line *ln, const struct iqe_tok *args,
                     uint32_t nargs, const double *vals, uint32_t given)
{
  int i = attr_of(args - 1);
  struct iqe_attr_arr *a;
  double dst[IQE_MAX_VALUES];
  const double *src = vals;
  size_t at;
  (void)nargs;
  storage_check(p, ln, args, i, vals, given);
  a = attr_append(p, i, ln->no);
  if (!a)
    return;
  if (i == ATTR_VX) {
    int form = given >= 5;
    memcpy(dst, vals, sizeof dst); /* x y z, and w or a: the normal's form */
    src = dst;
    if (form) {
      dst[3] = NAN; /* w from sign(dot(cross(n, t), b)), once normals are known */
      dst[4] = vals[3];
      dst[5] = vals[4];
      dst[6] = vals[5];
      if (given == 5)
        iqe_emit(p, RULE_IQE_TOO_FEW_VALUES, ln->no, args[4].col + args[4].len,
                 "vx with a bitangent needs X Y Z A B C (6)", "%u", (unsigned)given);
    }
    if (p->vx_count[form]++ == 0) {
      p->vx_first_line[form] = ln->no;
      p->vx_first_col[form] = args[0].col;
    }
  }
  /* components 0..stride-1, the storage decided once per line */
  at = (size_t)(a->count - 1) * a->stride;
  if (a->pk)
    iqe_attr_pack(a, a->count - 1, src);
  else if (a->v)
    memcpy(a->v + at, src, a->stride * sizeof *src);
  else if (a->f) /* neither: values nothing reads (alloc_arrays) */
    for (uint32_t c = 0; c < a->stride; c++)
      a->f[at + c] = (float)src[c];
}

void iqe_vertex_smooth(struct iqe_parser *p, const struct iqe_line *ln, const struct iqe_tok *args,
                       uint32_t nargs, const double *vals, uint32_t given)
{
  struct iqe_attr_arr *a = attr_append(p, ATTR_VS, ln->no);
  long v = 0;
  (void)vals;
  (void)given;
  if (nargs >= 1)
    iqe_arg_int(p, ln, &args[0], &v);
  if (a)
    iqe_attr_put_int(a, a->count - 1, (int32_t)v);
}

void iqe_vertex_blend(struct iqe_parser *p, const struct iqe_line *ln, const struct iqe_tok *args,
                      uint32_t nargs, const double *vals, uint32_t given)
{
  struct iqe_attr_arr *a = attr_append(p, ATTR_VB, ln->no);
  uint32_t first, npairs = 0, kept = 0, strong = 0, col0 = nargs ? args[0].col : 0;
  double sum = 0, top[4] = {0, 0, 0, 0};
  (void)vals;
  (void)given;
  if (!a)
    return;
  if (!p->vb_first)
    p->num_pairs = 0; /* no model: only this line's first pairs are kept */
  first = p->num_pairs;
  for (uint32_t k = 0; k < nargs; k += 2) {
    long idx = 0;
    double w = 0;
    const struct iqe_tok *ti = iqe_arg(p, args, k);
    uint32_t icol = ti->col; /* ti holds until the weight is read */
    int idx_ok = iqe_arg_int(p, ln, ti, &idx) == 0;
    if (k + 1 < nargs) {
      if (iqe_arg_real(p, ln, iqe_arg(p, args, k + 1), &w) < 0)
        w = 0;
    } else {
      iqe_emit(p, RULE_IQE_BLEND_WEIGHT_MISSING, ln->no, icol, NULL, "%ld", idx);
    }
    if (idx_ok) {
      if (idx < 0) {
        iqe_emit(p, RULE_IQE_BLEND_INDEX_RANGE, ln->no, icol, "indexes start at 0",
                 "%ld", idx);
      } else if (p->counts[CMD_JOINT] > 0 && idx >= (long)p->counts[CMD_JOINT]) {
        /* the joint list is the whole file's: joints may be listed after the mesh */
        char why[64];
        snprintf(why, sizeof why, "the file has %u joints", p->counts[CMD_JOINT]);
        iqe_emit(p, RULE_IQE_BLEND_INDEX_RANGE, ln->no, icol, why, "%ld", idx);
      } else {
        if (idx >= 256) {
          char wrapped[16];
          snprintf(wrapped, sizeof wrapped, "%ld", idx & 255);
          iqe_emit(p, RULE_IQE_BLEND_INDEX_WRAPS, ln->no, icol, wrapped, "%ld", idx);
        }
      }
      for (uint32_t j = 0; j < npairs && j < IQE_VB_KEPT; j++) /* bounded: real vb lines hold a few */
        if (p->pairs[first + j].index == (int32_t)idx) {
          iqe_emit(p, RULE_IQE_BLEND_INDEX_REPEATED, ln->no, icol, NULL, "%ld", idx);
          break;
        }
    }
    if (w < 0)
      iqe_emit(p, RULE_IQE_BLEND_WEIGHT_NEGATIVE, ln->no, iqe_arg(p, args, k + 1)->col, NULL, "%g", w);
    if (k + 1 < nargs) {
      /* a model keeps every pair; validation only those the repeated-index check reads */
      if (p->num_pairs < p->pairs_cap) {
        p->pairs[p->num_pairs].index = (int32_t)idx;
        p->pairs[p->num_pairs].weight = w;
        p->num_pairs++;
        kept++;
      }
      npairs++;
      /* the biggest 4 weights so far, in the line's order (ties keep the earlier) */
      for (int s = 0; s < 4; s++)
        if (w > top[s]) {
          memmove(top + s + 1, top + s, (size_t)(3 - s) * sizeof *top);
          top[s] = w;
          break;
        }
      if (w > 1e-3) {
        strong++;
        sum += w;
      }
    }
  }
  if (p->vb_first) {
    p->vb_first[a->count - 1] = first;
    p->vb_num[a->count - 1] = kept; /* npairs: the count pass sized pairs for every one */
  }
  if (npairs > 0 && strong == 0)
    iqe_emit(p, RULE_IQE_BLEND_WEIGHTS_ZERO, ln->no, args[1].col, NULL, "%u pairs", npairs);
  if (strong > 4) {
    /* the weights outside the biggest 4 are dropped before renormalising */
    char dropped[32];
    double top4 = top[0] + top[1] + top[2] + top[3];
    snprintf(dropped, sizeof dropped, "%.3g of %.3g", sum - top4, sum);
    iqe_emit(p, RULE_IQE_BLEND_RENORMALISED, ln->no, col0, dropped, "%u", strong);
  }
}

/* ---- vertexarray ------------------------------------------------------------------------ */

static const char *const type_names[IQE_SLOTS] = {
  "position", "texcoord", "normal", "tangent", "blendindexes", "blendweights", "color",
  "custom0", "custom1", "custom2", "custom3", "custom4", "custom5", "custom6", "custom7",
  "custom8", "custom9"
};
static const char *const component_names[VF_COUNT] = {
  "byte", "ubyte", "short", "ushort", "int", "uint", "half", "float", "double"
};

static int name_index(const struct iqe_tok *t, const char *const *names, int n)
{
  for (int i = 0; i < n; i++)
    if (strlen(names[i]) == t->len && !strncasecmp(names[i], t->s, t->len))
      return i;
  return -1;
}

void iqe_vertex_array(struct iqe_parser *p, const struct iqe_line *ln, const struct iqe_tok *args,
                      uint32_t nargs, const double *vals, uint32_t given)
{
  struct iqe_layout *l;
  int slot, comp = -1;
  long size = 0;
  (void)vals;
  (void)given;
  if (nargs == 0) {
    iqe_emit(p, RULE_IQE_VERTEXARRAY_TYPE, ln->no, args[-1].col + args[-1].len,
             "position, texcoord, normal, tangent, blendindexes, blendweights, color, custom0-9",
             "%s", "(missing)");
    return;
  }
  slot = name_index(&args[0], type_names, IQE_SLOTS);
  if (slot < 0) {
    iqe_emit(p, RULE_IQE_VERTEXARRAY_TYPE, ln->no, args[0].col,
             "position, texcoord, normal, tangent, blendindexes, blendweights, color, custom0-9",
             "%.*s", (int)(args[0].len > 40 ? 40 : args[0].len), args[0].s);
    return;
  }
  l = &p->layout[slot];
  if (l->declared) {
    char first[16];
    snprintf(first, sizeof first, "%u", l->line);
    iqe_emit(p, RULE_IQE_VERTEXARRAY_REPEATED, ln->no, args[0].col, first, "%s", type_names[slot]);
    return;
  }
  l->declared = 1;
  l->line = ln->no;
  l->format = slot >= 7 ? VF_FLOAT : (uint32_t)-1; /* -1: the type's default, set at build */
  l->size = 0;
  l->name = NULL;
  if (nargs >= 2)
    comp = name_index(&args[1], component_names, VF_COUNT);
  if (comp < 0)
    iqe_emit(p, RULE_IQE_VERTEXARRAY_COMPONENT, nargs >= 2 ? ln->no : ln->no,
             nargs >= 2 ? args[1].col : args[0].col + args[0].len,
             "byte, ubyte, short, ushort, int, uint, half, float, double", "%.*s",
             nargs >= 2 ? (int)(args[1].len > 40 ? 40 : args[1].len) : 9,
             nargs >= 2 ? args[1].s : "(missing)");
  else
    l->format = (uint32_t)comp;
  if (nargs >= 3 && iqe_parse_int(args[2].s, args[2].len, &size) == IQE_NUM_OK && size >= 1 &&
      size <= 4) {
    l->size = (uint32_t)size;
  } else {
    uint32_t col = nargs >= 3 ? args[2].col : args[nargs - 1].col + args[nargs - 1].len;
    iqe_emit(p, RULE_IQE_VERTEXARRAY_SIZE, ln->no, col,
             "it must be 1 to 4; the type's default size is used", "%.*s",
             nargs >= 3 ? (int)(args[2].len > 40 ? 40 : args[2].len) : 9,
             nargs >= 3 ? args[2].s : "(missing)");
  }
  if (slot == VT_NORMAL && l->size == 4)
    iqe_emit(p, RULE_IQE_NORMAL_SIZE_FOUR, ln->no, args[2].col, NULL, "%u", 4u);
  if (nargs >= 4) {
    if (args[3].unterminated)
      iqe_emit(p, RULE_IQE_UNTERMINATED_QUOTE, ln->no, args[3].col, NULL, "\"%.*s",
               (int)(args[3].len > 40 ? 40 : args[3].len), args[3].s);
    l->name = arena_strndup(&p->m->arena, args[3].s, args[3].len);
  }
  if (!l->name)
    l->name = type_names[slot];
}
