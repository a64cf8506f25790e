/* x42_legacy.c - X42 V0 ... V4b over layout profiles. The change log fixes the section order,
 * which sections depend on which flags and how values are packed; a profile (built in, or the
 * file named by MDLCHECK_X42_LAYOUT) supplies what it does not, each unknown under a named
 * assumption. The checker walks the header and sections the profile declares, applies the
 * rules of each field's role, reports every assumption the verdict rests on, and decodes the
 * skeleton and its tracks into the common model. */
#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "x42_legacy.h"
#include "x42_profile.h"
#include "pose.h"

#define LX_NONE16 0xFFFFu
#define LX_MAX_POSES (1u << 22)
/* What lx_index answers for a value that is no index: above any count a file can hold. */
#define LX_BAD ((uint64_t)1 << 40)

/* One profile, loaded once per decode. */
struct lx_profiles {
  struct x42_profile p[16];
  unsigned n;
  const char *user_error; /* MDLCHECK_X42_LAYOUT could not be used */
  char err[200];
};

struct lx_sec {
  int present;
  uint64_t off, count, esize;
  const struct lp_fields *fields;
  uint32_t foff[256]; /* field offsets inside an element */
};

struct lx {
  struct decode_ctx *dc;
  struct diag_sink *diag;
  struct reader *in;
  const struct x42_profile *p;
  uint64_t *hoff;
  int *hpresent;
  struct lx_sec *secs;
  uint64_t end;
};

static uint64_t align_up(uint64_t off, uint64_t a)
{
  return a > 1 ? (off + a - 1) / a * a : off;
}

static double get_at(struct reader *in, uint64_t off, enum lp_type t)
{
  switch (t) {
  case LP_U8: case LP_CHAR: return reader_u8_at(in, off);
  case LP_S8: return (int8_t)reader_u8_at(in, off);
  case LP_U16: return reader_u16_at(in, off);
  case LP_S16: return (int16_t)reader_u16_at(in, off);
  case LP_U32: return reader_u32_at(in, off);
  case LP_S32: return reader_i32_at(in, off);
  case LP_F32: return reader_f32_at(in, off);
  default: return 0;
  }
}

/* The raw bits of a field (flags are bit sets whatever type a layout declares them). */
static uint32_t get_bits_at(struct reader *in, uint64_t off, enum lp_type t)
{
  switch (lp_type_size[t]) {
  case 1: return reader_u8_at(in, off);
  case 2: return reader_u16_at(in, off);
  default: return reader_u32_at(in, off);
  }
}

/* A value used as an index, a count or a frame number. A declared layout may make such a field
 * signed or f32: NaN, negative, fractional and huge values become LX_BAD, which every range
 * check rejects, instead of an undefined conversion that would let them pass. */
static uint64_t lx_index(double v)
{
  return v >= 0 && v < 4294967296.0 && v == floor(v) ? (uint64_t)v : LX_BAD;
}

/* "No bone": 0xFFFF, or -1 in a signed field (the same bits in a signed 16-bit one). */
static int lx_is_none(enum lp_type t, double v)
{
  return v == LX_NONE16 || (v == -1 && (t == LP_S8 || t == LP_S16 || t == LP_S32));
}

/* One byte of an inline name: an integer in 1 ... 255, anything else (possible only in a
 * declared layout with a wider name type) as '?'. 0 ends the name. */
static char lx_name_byte(double v)
{
  if (v == 0)
    return 0;
  return v >= 1 && v <= 255 && v == floor(v) ? (char)(unsigned char)v : '?';
}

/* An integer conversion for decoding only: NaN and out-of-range values clamp (the checker has
 * reported them where it can). */
static long lx_clamp(double v, long lo, long hi)
{
  return !(v >= (double)lo) ? lo : v > (double)hi ? hi : (long)v;
}

/* --- the profiles ----------------------------------------------------------------------------- */

/* The user's profile: options->layout_file (--x42-layout, x42_layout=, or the tool's
 * $MDLCHECK_X42_LAYOUT: the library reads no environment). */
static int profiles_load(struct arena *a, struct lx_profiles *ps, const mdl_options *options)
{
  const char *user = options ? options->layout_file : NULL;
  memset(ps, 0, sizeof *ps);
  if (user && *user) {
    size_t len = 0;
    char *text = x42_layout_read(user, a, &len);
    if (text) {
      if (x42_profile_parse(text, len, user, a, &ps->p[ps->n], ps->err, sizeof ps->err) == 0)
        ps->n++;
      else
        ps->user_error = user;
    } else {
      snprintf(ps->err, sizeof ps->err, "cannot read the file (or it is not a regular file, or exceeds 1 MiB)");
      ps->user_error = user;
    }
  }
  for (unsigned i = 0; x42_builtin_profiles[i] && ps->n < 16; i++) {
    char err[200];
    if (x42_profile_parse(x42_builtin_profiles[i], strlen(x42_builtin_profiles[i]), "built-in", a, &ps->p[ps->n], err,
                          sizeof err) == 0)
      ps->n++;
  }
  return 0;
}

const char *x42_legacy_forced(const mdl_options *options)
{
  if (options && options->profile && !strncmp(options->profile, "x42-", 4))
    return options->profile + 4;
  return NULL;
}

static const struct x42_profile *profile_named(const struct lx_profiles *ps, const char *name)
{
  for (unsigned i = 0; i < ps->n; i++) {
    const char *a = ps->p[i].name, *b = name;
    while (*a && *b && tolower((unsigned char)*a) == tolower((unsigned char)*b))
      a++, b++;
    if (!*a && !*b)
      return &ps->p[i];
  }
  return NULL;
}

static const struct x42_profile *profile_for(const struct lx_profiles *ps, uint32_t version)
{
  for (unsigned i = 0; i < ps->n; i++) /* the user's profile comes first and wins */
    if (ps->p[i].version == version)
      return &ps->p[i];
  return NULL;
}

int x42_legacy_detect_version(uint32_t version, const mdl_options *options)
{
  struct arena a;
  struct lx_profiles *ps = malloc(sizeof *ps);
  int found;
  if (!ps)
    return 0;
  arena_init(&a);
  profiles_load(&a, ps, options);
  found = profile_for(ps, version) != NULL || ps->user_error != NULL;
  arena_free(&a);
  free(ps);
  return found;
}

/* --- header and layout ------------------------------------------------------------------------ */

static int header_index(const struct x42_profile *p, const char *name)
{
  for (uint32_t i = 0; i < p->header.n; i++)
    if (!strcmp(p->header.v[i].name, name))
      return (int)i;
  return -1;
}

static double hval(const struct lx *x, const char *name)
{
  int i = header_index(x->p, name);
  if (i < 0 || !x->hpresent[i])
    return 0;
  return get_at(x->in, x->hoff[i], x->p->header.v[i].type);
}

/* A header count (absent: 0; not a count: LX_BAD). */
static uint64_t hcount(const struct lx *x, const char *name)
{
  return lx_index(hval(x, name));
}

static uint32_t hbits(const struct lx *x, const char *name)
{
  int i = header_index(x->p, name);
  if (i < 0 || !x->hpresent[i])
    return 0;
  return get_bits_at(x->in, x->hoff[i], x->p->header.v[i].type);
}

static int cond_true(const struct lx *x, const char *cond)
{
  int neg = 0;
  if (!cond)
    return 1;
  if (*cond == '!')
    neg = 1, cond++;
  for (uint32_t i = 0; i < x->p->nflags; i++)
    if (!strcmp(x->p->flags[i].name, cond)) {
      uint32_t v = hbits(x, x->p->flags[i].field);
      return ((v & x->p->flags[i].value) != 0) != neg;
    }
  return neg;
}

static int section_index(const struct x42_profile *p, const char *name)
{
  for (uint32_t i = 0; i < p->nsections; i++)
    if (!strcmp(p->sections[i].name, name))
      return (int)i;
  return -1;
}

static int field_index(const struct lp_fields *fs, const char *name)
{
  for (uint32_t i = 0; i < fs->n; i++)
    if (!strcmp(fs->v[i].name, name))
      return (int)i;
  return -1;
}

static int field_by_role(const struct lp_fields *fs, const char *role)
{
  for (uint32_t i = 0; i < fs->n; i++)
    if (!strcmp(fs->v[i].role, role))
      return (int)i;
  return -1;
}

/* Element e's field f (component k) of section s. */
static double sget(const struct lx *x, int s, uint64_t e, int f, uint32_t k)
{
  const struct lx_sec *sec = &x->secs[s];
  const struct lp_field *fd = &sec->fields->v[f];
  return get_at(x->in, sec->off + e * sec->esize + sec->foff[f] + (uint64_t)k * lp_type_size[fd->type], fd->type);
}

static uint64_t sindex(const struct lx *x, int s, uint64_t e, int f, uint32_t k)
{
  return lx_index(sget(x, s, e, f, k));
}

static uint64_t soff(const struct lx *x, int s, uint64_t e, int f)
{
  return x->secs[s].off + e * x->secs[s].esize + x->secs[s].foff[f];
}

/* The blend section's length: (2m - 1) bytes per vertex of every group with m influences. */
static uint64_t blend_len(const struct lx *x)
{
  int g = section_index(x->p, "groups"), fm, fn;
  uint64_t len = 0;
  if (g < 0 || !x->secs[g].present)
    return 0;
  fm = field_by_role(x->secs[g].fields, "max_influences");
  fn = field_index(x->secs[g].fields, "numVerts");
  if (fm < 0 || fn < 0)
    return 0;
  for (uint64_t e = 0; e < x->secs[g].count; e++) {
    uint64_t m = sindex(x, g, e, fm, 0), nv = sindex(x, g, e, fn, 0);
    if (m && nv) {
      /* past the file's size the walk fails anyway: saturate instead of wrapping */
      if (m >= LX_BAD || nv >= LX_BAD || (2 * m - 1) * nv > (uint64_t)x->in->size - len)
        return (uint64_t)x->in->size + 1;
      len += (2 * m - 1) * nv;
    }
  }
  return len;
}

static int layout_walk(struct lx *x)
{
  const struct x42_profile *p = x->p;
  uint64_t off = 8, size = x->in->size;
  char exp[64];
  for (uint32_t i = 0; i < p->header.n; i++) {
    const struct lp_field *f = &p->header.v[i];
    x->hpresent[i] = cond_true(x, f->cond);
    x->hoff[i] = off;
    if (x->hpresent[i])
      off += (uint64_t)lp_type_size[f->type] * f->count;
    if (off > size) {
      struct mdl_loc loc = loc_bin(x->hoff[i] < size ? x->hoff[i] : size, "header.%s", f->name);
      snprintf(exp, sizeof exp, ">= %llu bytes", (unsigned long long)off);
      diag_emit(x->diag, RULE_X42_LEGACY_SECTIONS_PAST_END, &loc, exp, "%zu bytes", x->in->size);
      return -1;
    }
  }
  for (uint32_t s = 0; s < p->nsections; s++) {
    const struct lp_section *ps = &p->sections[s];
    struct lx_sec *sec = &x->secs[s];
    uint64_t esize = 0;
    sec->present = cond_true(x, ps->cond);
    sec->fields = &ps->fields;
    for (uint32_t v = 0; v < ps->nvariants; v++)
      if (cond_true(x, ps->variants[v].cond)) {
        sec->fields = &ps->variants[v].fields;
        break;
      }
    for (uint32_t f = 0; f < sec->fields->n && f < 256; f++) {
      sec->foff[f] = (uint32_t)esize;
      esize += (uint64_t)lp_type_size[sec->fields->v[f].type] * sec->fields->v[f].count;
    }
    sec->esize = esize;
    if (!sec->present) {
      sec->off = off;
      continue;
    }
    off = align_up(off, p->align);
    sec->off = off;
    sec->count = !strcmp(ps->count, "blend") ? blend_len(x) : hcount(x, ps->count);
    if (!reader_has_array(x->in, off, sec->count, esize)) {
      struct mdl_loc loc = loc_bin(off < size ? off : size, "%s", ps->name);
      snprintf(exp, sizeof exp, ">= %llu bytes", (unsigned long long)(off + sec->count * esize));
      diag_emit(x->diag, RULE_X42_LEGACY_SECTIONS_PAST_END, &loc, exp, "%zu bytes", x->in->size);
      return -1;
    }
    off += sec->count * esize;
  }
  x->end = off;
  if (off < size) {
    struct mdl_loc loc = loc_bin(off, "trailing");
    snprintf(exp, sizeof exp, "%llu bytes", (unsigned long long)off);
    diag_emit(x->diag, RULE_X42_LEGACY_TRAILING_BYTES, &loc, exp, "%llu bytes after the last section",
              (unsigned long long)(size - off));
  }
  return 0;
}

/* --- the rules of each role ------------------------------------------------------------------ */

static void check_header(struct lx *x)
{
  const struct x42_profile *p = x->p;
  uint64_t nb = hcount(x, "numBones");
  for (uint32_t i = 0; i < p->header.n; i++) {
    const struct lp_field *f = &p->header.v[i];
    struct mdl_loc loc;
    if (!x->hpresent[i])
      continue;
    loc = loc_bin(x->hoff[i], "header.%s", f->name);
    if (!strcmp(f->role, "flags")) {
      uint32_t v = get_bits_at(x->in, x->hoff[i], f->type), known = 0;
      char exp[160] = "";
      for (uint32_t k = 0; k < p->nflags; k++)
        if (!strcmp(p->flags[k].field, f->name)) {
          known |= p->flags[k].value;
          if (strlen(exp) + strlen(p->flags[k].name) + 2 < sizeof exp)
            strcat(strcat(exp, *exp ? " " : ""), p->flags[k].name);
        }
      if (v & ~known)
        diag_emit(x->diag, RULE_X42_LEGACY_FLAGS_UNKNOWN, &loc, *exp ? exp : "no flags", "0x%x", v & ~known);
    } else if (!strcmp(f->role, "bone")) {
      double v = get_at(x->in, x->hoff[i], f->type);
      if (!lx_is_none(f->type, v) && lx_index(v) >= nb)
        diag_emit(x->diag, RULE_X42_LEGACY_INDEX_RANGE, &loc, "< numBones or 0xFFFF", "%.10g", v);
    } else if (!strcmp(f->role, "range")) {
      float lo = reader_f32_at(x->in, x->hoff[i]), hi = reader_f32_at(x->in, x->hoff[i] + 4);
      if (!isfinite(lo) || !isfinite(hi) || lo > hi) {
        if (isfinite(lo) && !isfinite(hi))
          loc.offset += 4;
        diag_emit(x->diag, RULE_X42_LEGACY_PACK_RANGE, &loc, "finite min <= max", "{%g, %g}", (double)lo, (double)hi);
      }
    } else if (!strcmp(f->role, "finite")) {
      for (uint32_t k = 0; k < f->count; k++)
        if (!isfinite(reader_f32_at(x->in, x->hoff[i] + 4u * k))) {
          loc.offset = (long long)(x->hoff[i] + 4u * k);
          diag_emit(x->diag, RULE_X42_LEGACY_NOT_FINITE, &loc, "a finite number", "%g",
                    (double)reader_f32_at(x->in, x->hoff[i] + 4u * k));
          break;
        }
    }
  }
}

static uint64_t count_of(const struct lx *x, const char *section)
{
  int s = section_index(x->p, section);
  return s >= 0 && x->secs[s].present ? x->secs[s].count : 0;
}

static void check_element(struct lx *x, int s, uint64_t e)
{
  const struct lp_fields *fs = x->secs[s].fields;
  const char *sname = x->p->sections[s].name;
  uint64_t nb = hcount(x, "numBones");
  char exp[96];
  for (uint32_t f = 0; f < fs->n; f++) {
    const struct lp_field *fd = &fs->v[f];
    const char *role = fd->role;
    struct mdl_loc loc = loc_bin(soff(x, s, e, (int)f), "%s[%llu].%s", sname, (unsigned long long)e, fd->name);
    double v = sget(x, s, e, (int)f, 0);
    if (!strcmp(role, "parent")) {
      if (!lx_is_none(fd->type, v) && lx_index(v) >= e) {
        snprintf(exp, sizeof exp, "< %llu or 0xFFFF", (unsigned long long)e);
        diag_emit(x->diag, RULE_X42_LEGACY_INDEX_RANGE, &loc, exp, "%.10g", v);
      }
    } else if (!strcmp(role, "bone")) {
      if (!lx_is_none(fd->type, v) && lx_index(v) >= nb) {
        snprintf(exp, sizeof exp, "< %llu (numBones) or 0xFFFF", (unsigned long long)nb);
        diag_emit(x->diag, RULE_X42_LEGACY_INDEX_RANGE, &loc, exp, "%.10g", v);
      }
    } else if (!strcmp(role, "first") && fd->span) {
      int sf = field_index(fs, fd->span);
      uint64_t span = sf >= 0 ? sindex(x, s, e, sf, 0) : 0, total = count_of(x, fd->of), first = lx_index(v);
      if (sf >= 0 && !strcmp(fs->v[sf].role, "span_triangles"))
        span *= 3;
      if (first + span > total) {
        if (first < total && sf >= 0)
          loc.offset = (long long)soff(x, s, e, sf), snprintf(loc.path, sizeof loc.path, "%s[%llu].%s", sname,
                                                              (unsigned long long)e, fs->v[sf].name);
        snprintf(exp, sizeof exp, "first + count <= %llu (%s)", (unsigned long long)total, fd->of);
        diag_emit(x->diag, RULE_X42_LEGACY_INDEX_RANGE, &loc, exp, "%.10g + %.10g", v, sf >= 0 ? sget(x, s, e, sf, 0) : 0.0);
      }
    } else if (!strcmp(role, "name")) {
      uint32_t k;
      for (k = 0; k < fd->count && sget(x, s, e, (int)f, k) != 0; k++)
        ;
      if (k == fd->count) {
        snprintf(exp, sizeof exp, "a NUL within %u bytes", fd->count);
        diag_emit(x->diag, RULE_X42_LEGACY_NAME_UNTERMINATED, &loc, exp, NULL);
      }
    } else if (!strcmp(role, "finite") || !strcmp(role, "position") || !strcmp(role, "scale") || !strcmp(role, "unit")) {
      for (uint32_t k = 0; k < fd->count && fd->type == LP_F32; k++)
        if (!isfinite(sget(x, s, e, (int)f, k))) {
          loc.offset += 4 * (long long)k;
          diag_emit(x->diag, RULE_X42_LEGACY_NOT_FINITE, &loc, "a finite number", "%g", sget(x, s, e, (int)f, k));
          break;
        }
    } else if (!strcmp(role, "rotation") || !strcmp(role, "rotation_s16n")) {
      double n2 = 0, tol = fd->type == LP_F32 ? 1e-5 : 2.0 / 32767.0;
      for (uint32_t k = 0; k < 4 && k < fd->count; k++) {
        double c = sget(x, s, e, (int)f, k);
        if (fd->type == LP_S16)
          c /= 32767.0;
        n2 += c * c;
      }
      if (!(fabs(sqrt(n2) - 1) <= tol))
        diag_emit(x->diag, RULE_X42_LEGACY_ROTATION_NOT_UNIT, &loc, fd->type == LP_F32 ? "1 +- 1e-5" : "1 +- 2/32767",
                  "|q| = %.6f", sqrt(n2));
    } else if (!strcmp(role, "rotation_v2a")) {
      double n2 = 0;
      for (uint32_t k = 0; k < 3; k++)
        n2 += sget(x, s, e, (int)f, k) * sget(x, s, e, (int)f, k);
      if (!(n2 <= 1 + 4 * ldexp(1, -24)))
        diag_emit(x->diag, RULE_X42_LEGACY_V2A_ROTATION, &loc, "x^2 + y^2 + z^2 <= 1", "%.7f", n2);
    } else if (!strcmp(role, "time_frame")) {
      uint64_t nf = hcount(x, "numFrames");
      if (lx_index(v) >= nf) {
        snprintf(exp, sizeof exp, "< %llu (numFrames; V4b times are frame numbers)", (unsigned long long)nf);
        diag_emit(x->diag, RULE_X42_LEGACY_TIME_RANGE, &loc, exp, "%.10g", v);
      }
    } else if (!strcmp(role, "direction")) {
      if (v != 0 && v != 1)
        diag_emit(x->diag, RULE_X42_LEGACY_PACKED_BITS_DIRECTION, &loc, "0 (n = t x b) or 1 (n = -(t x b))", "%.10g", v);
    } else if (!strcmp(role, "blend_weights")) {
      double sum = 0;
      for (uint32_t k = 0; k + 1 < fd->count; k++)
        sum += sget(x, s, e, (int)f, k);
      if (sum > 255)
        diag_emit(x->diag, RULE_X42_LEGACY_BLEND_WEIGHTS, &loc, "stored weights sum <= 255", "%g", sum);
    } else if (!strcmp(role, "palette")) {
      int fn = field_by_role(fs, "num_influences");
      uint64_t used = fn >= 0 ? sindex(x, s, e, fn, 0) : 0, total = hcount(x, "numInfluences");
      if (used > fd->count) {
        loc.offset = (long long)soff(x, s, e, fn);
        snprintf(exp, sizeof exp, "<= %u (the palette's size)", fd->count);
        diag_emit(x->diag, RULE_X42_LEGACY_INDEX_RANGE, &loc, exp, "%.10g", sget(x, s, e, fn, 0));
        used = fd->count;
      }
      for (uint32_t k = 0; k < used; k++)
        if (sindex(x, s, e, (int)f, k) >= total) {
          loc.offset = (long long)(soff(x, s, e, (int)f) + k * lp_type_size[fd->type]);
          snprintf(exp, sizeof exp, "< %llu (numInfluences)", (unsigned long long)total);
          diag_emit(x->diag, RULE_X42_LEGACY_INDEX_RANGE, &loc, exp, "%g", sget(x, s, e, (int)f, k));
        }
    }
  }
}

/* Blend segments (VERT_POS) and indices depend on the groups. */
static void check_groups_data(struct lx *x)
{
  int g = section_index(x->p, "groups"), b = section_index(x->p, "blendData"), ix = section_index(x->p, "indices");
  int fm, fi, fv, ffi, fe;
  uint64_t pos = 0, budget;
  char exp[96];
  if (g < 0 || !x->secs[g].present)
    return;
  /* groups may overlap: bound the index checks */
  budget = 4 * (ix >= 0 ? x->secs[ix].count : 0) + (1u << 20);
  fm = field_by_role(x->secs[g].fields, "max_influences");
  fi = field_by_role(x->secs[g].fields, "num_influences");
  fv = field_index(x->secs[g].fields, "numVerts");
  ffi = field_index(x->secs[g].fields, "firstIndex");
  fe = field_by_role(x->secs[g].fields, "span_triangles");
  if (fe < 0)
    fe = field_index(x->secs[g].fields, "numElems");
  for (uint64_t e = 0; e < x->secs[g].count; e++) {
    uint64_t m = fm >= 0 ? sindex(x, g, e, fm, 0) : 0, ni = fi >= 0 ? sindex(x, g, e, fi, 0) : 0;
    uint64_t nv = fv >= 0 ? sindex(x, g, e, fv, 0) : 0;
    if (b >= 0 && x->secs[b].present && m) {
      for (uint64_t v = 0; v < nv && pos + 2 * m - 1 <= x->secs[b].count; v++, pos += 2 * m - 1) {
        uint64_t o = x->secs[b].off + pos;
        unsigned sum = 0;
        for (uint64_t k = 0; k < m; k++) {
          unsigned idx = reader_u8_at(x->in, o + 2 * k);
          if (idx >= ni) {
            struct mdl_loc loc = loc_bin(o + 2 * k, "blendData[%llu]", (unsigned long long)(pos + 2 * k));
            snprintf(exp, sizeof exp, "< %llu (the group's numInfluences)", (unsigned long long)ni);
            diag_emit(x->diag, RULE_X42_LEGACY_BLEND_WEIGHTS, &loc, exp, "index %u", idx);
          }
          if (k + 1 < m)
            sum += reader_u8_at(x->in, o + 2 * k + 1);
        }
        if (sum > 255) {
          struct mdl_loc loc = loc_bin(o + 1, "blendData[%llu]", (unsigned long long)(pos + 1));
          diag_emit(x->diag, RULE_X42_LEGACY_BLEND_WEIGHTS, &loc, "stored weights sum <= 255", "%u", sum);
        }
      }
    }
    if (ix >= 0 && x->secs[ix].present && ffi >= 0 && fe >= 0) {
      uint64_t first = sindex(x, g, e, ffi, 0), n = sindex(x, g, e, fe, 0);
      if (!strcmp(x->secs[g].fields->v[fe].role, "span_triangles"))
        n *= 3;
      for (uint64_t k = first; k < first + n && k < x->secs[ix].count && budget; k++, budget--) {
        double v = sget(x, ix, k, 0, 0);
        if (lx_index(v) >= nv) {
          struct mdl_loc loc = loc_bin(soff(x, ix, k, 0), "indices[%llu]", (unsigned long long)k);
          snprintf(exp, sizeof exp, "< %llu (the group's numVerts)", (unsigned long long)nv);
          diag_emit(x->diag, RULE_X42_LEGACY_INDEX_RANGE, &loc, exp, "%.10g", v);
        }
      }
    }
  }
}

/* Track times: increasing along each bone's track (and, from V4b, frame numbers). */
static void check_tracks(struct lx *x)
{
  int bs = section_index(x->p, "bones");
  if (bs < 0 || !x->secs[bs].present)
    return;
  for (uint32_t f = 0; f < x->secs[bs].fields->n; f++) {
    const struct lp_field *fd = &x->secs[bs].fields->v[f];
    char tname[64];
    int ts, sf;
    const char *suffix;
    if (strcmp(fd->role, "first") || !fd->of || !fd->span || !(suffix = strstr(fd->of, "Values")))
      continue;
    snprintf(tname, sizeof tname, "%.*sTimes", (int)(suffix - fd->of), fd->of);
    ts = section_index(x->p, tname);
    sf = field_index(x->secs[bs].fields, fd->span);
    if (ts < 0 || sf < 0 || !x->secs[ts].present)
      continue;
    for (uint64_t b = 0; b < x->secs[bs].count; b++) {
      uint64_t first = sindex(x, bs, b, (int)f, 0), n = sindex(x, bs, b, sf, 0);
      for (uint64_t k = first + 1; k < first + n && k < x->secs[ts].count; k++)
        if (!(sget(x, ts, k, 0, 0) > sget(x, ts, k - 1, 0, 0))) {
          struct mdl_loc loc = loc_bin(soff(x, ts, k, 0), "%s[%llu]", tname, (unsigned long long)k);
          char exp[64];
          snprintf(exp, sizeof exp, "> %g (the track's previous time)", sget(x, ts, k - 1, 0, 0));
          diag_emit(x->diag, RULE_X42_LEGACY_TIME_RANGE, &loc, exp, "%g", sget(x, ts, k, 0, 0));
        }
    }
  }
}

static void report_assumptions(struct lx *x)
{
  const struct x42_profile *p = x->p;
  for (uint32_t i = 0; i < p->nassumptions; i++) {
    struct mdl_loc loc = loc_bin(4, "profile %s (%s)", p->name, p->origin);
    diag_emit(x->diag, RULE_X42_LEGACY_ASSUMPTION, &loc, NULL, "%s: %s", p->assumptions[i].id, p->assumptions[i].what);
  }
}

/* --- the model -------------------------------------------------------------------------------- */

/* Value of a key, decoded per its field's role; out has 3 (position, scale) or 4 components. */
static void key_value(const struct lx *x, int s, uint64_t e, double out[4])
{
  const struct lp_fields *fs = x->secs[s].fields;
  const struct lp_field *fd = &fs->v[0];
  out[0] = out[1] = out[2] = 0;
  out[3] = 1;
  if (!strcmp(fd->role, "rotation_v2a")) {
    double n2 = 0;
    for (uint32_t k = 0; k < 3; k++)
      out[k] = sget(x, s, e, 0, k), n2 += out[k] * out[k];
    out[3] = n2 < 1 ? sqrt(1 - n2) : 0; /* the sign of w is lost: always + */
  } else if (!strcmp(fd->role, "rotation_s16n")) {
    for (uint32_t k = 0; k < 4; k++)
      out[k] = fd->type == LP_S16 ? x42_s16n((int16_t)sget(x, s, e, 0, k)) : sget(x, s, e, 0, k); /* as checked */
  } else if (fd->range) {
    int h = header_index(x->p, fd->range);
    float lo = h >= 0 ? reader_f32_at(x->in, x->hoff[h]) : 0, hi = h >= 0 ? reader_f32_at(x->in, x->hoff[h] + 4) : 0;
    for (uint32_t k = 0; k < 3 && k < fd->count; k++)
      out[k] = x42_range_decode((uint16_t)lx_clamp(sget(x, s, e, 0, k), 0, 65535), lo, hi);
  } else {
    for (uint32_t k = 0; k < fd->count && k < 4; k++)
      out[k] = sget(x, s, e, 0, k);
  }
}

static double time_to_frame(const struct lx *x, int ts, uint64_t k)
{
  double t = sget(x, ts, k, 0, 0);
  if (!strcmp(x->secs[ts].fields->v[0].role, "time_frame"))
    return t;
  return t / 65535.0 * (hval(x, "numFrames") > 1 ? hval(x, "numFrames") - 1 : 0);
}

static void fill_frames(struct lx *x, struct model *m)
{
  int bs = section_index(x->p, "bones");
  uint64_t nf64 = hcount(x, "numFrames");
  uint32_t nf = nf64 <= LX_MAX_POSES ? (uint32_t)nf64 : 0, nb = m->num_joints;
  if (bs < 0 || !nf || !nb || (uint64_t)nf * nb > LX_MAX_POSES)
    return;
  m->frames = arena_calloc(&m->arena, (size_t)nf * nb, sizeof *m->frames);
  if (!m->frames)
    return;
  m->num_frames = nf;
  for (uint32_t i = 0; i < nf * nb; i++)
    trs_identity(&m->frames[i]);
  for (uint32_t f = 0; f < x->secs[bs].fields->n; f++) {
    const struct lp_field *fd = &x->secs[bs].fields->v[f];
    char tname[64];
    const char *suffix;
    int vs, ts, sf;
    if (strcmp(fd->role, "first") || !fd->of || !fd->span || !(suffix = strstr(fd->of, "Values")))
      continue;
    snprintf(tname, sizeof tname, "%.*sTimes", (int)(suffix - fd->of), fd->of);
    vs = section_index(x->p, fd->of);
    ts = section_index(x->p, tname);
    sf = field_index(x->secs[bs].fields, fd->span);
    if (vs < 0 || ts < 0 || sf < 0 || !x->secs[vs].present || !x->secs[ts].present)
      continue;
    for (uint32_t b = 0; b < nb; b++) {
      uint64_t first = sindex(x, bs, b, (int)f, 0), n = sindex(x, bs, b, sf, 0), k = first;
      if (!n || first + n > x->secs[vs].count || first + n > x->secs[ts].count)
        continue;
      for (uint32_t fr = 0; fr < nf; fr++) {
        double a[4], c[4], out[4], t0, t1;
        struct trs *p = &m->frames[(size_t)fr * nb + b];
        while (k + 1 < first + n && time_to_frame(x, ts, k + 1) <= fr)
          k++;
        key_value(x, vs, k, a);
        memcpy(out, a, sizeof out);
        t0 = time_to_frame(x, ts, k);
        if (k + 1 < first + n && fr > t0) {
          t1 = time_to_frame(x, ts, k + 1);
          key_value(x, vs, k + 1, c);
          if (t1 > t0) {
            double t = (fr - t0) / (t1 - t0), dot = a[0] * c[0] + a[1] * c[1] + a[2] * c[2] + a[3] * c[3];
            for (int q = 0; q < 4; q++)
              out[q] = a[q] + ((strstr(fd->of, "rotation") && dot < 0 ? -c[q] : c[q]) - a[q]) * t;
          }
        }
        if (strstr(fd->of, "rotation")) {
          quat_normalize(out);
          memcpy(p->r, out, sizeof p->r);
        } else if (strstr(fd->of, "scale")) {
          memcpy(p->s, out, sizeof p->s);
        } else {
          memcpy(p->t, out, sizeof p->t);
        }
      }
    }
  }
}

static void fill_model(struct lx *x, struct model *m)
{
  int bs = section_index(x->p, "bones"), fn, fp;
  if (bs < 0 || !x->secs[bs].present)
    return;
  fn = field_by_role(x->secs[bs].fields, "name");
  fp = field_by_role(x->secs[bs].fields, "parent");
  m->num_joints = (uint32_t)x->secs[bs].count;
  model_joints_alloc(m, (size_t)m->num_joints + 1); /* out of memory: joints NULL */
  m->pose_parents = arena_calloc(&m->arena, (size_t)m->num_joints + 1, sizeof *m->pose_parents);
  if (!m->joints || !m->pose_parents) {
    m->num_joints = 0;
    return;
  }
  m->num_poses = m->num_joints;
  for (uint32_t b = 0; b < m->num_joints; b++) {
    char name[256];
    uint32_t k = 0;
    if (fn >= 0) {
      const struct lp_field *fd = &x->secs[bs].fields->v[fn];
      for (; k < fd->count && k + 1 < sizeof name; k++)
        if (!(name[k] = lx_name_byte(sget(x, bs, b, fn, k))))
          break;
    }
    name[k] = 0;
    m->joints[b].name = arena_strndup(&m->arena, name, strlen(name));
    m->joints[b].parent = fp >= 0 && sindex(x, bs, b, fp, 0) < b ? (int32_t)sindex(x, bs, b, fp, 0) : -1;
    m->pose_parents[b] = m->joints[b].parent;
    trs_identity(model_rest_mut(m, b));
  }
  if (x->dc->keep_frames)
    fill_frames(x, m);
  else /* the report's stats: the frames are counted by the full decode only */
    decode_count(x->dc, DC_FRAMES, MDL_STAT_UNKNOWN);
  if (m->frames)
    for (uint32_t b = 0; b < m->num_joints; b++)
      *model_rest_mut(m, b) = m->frames[b];
}

/* The section order the change log gives each version (flag-dependent sections included). */
static const char *const log_order[][20] = {
  {"V0", "bones", "positionTimes", "positionValues", "rotationTimes", "rotationValues", "scaleTimes", "scaleValues",
   "influences", "tags", "groups", "vertexPositions", "normals", "tangentBasis", "attributes", "indices", NULL},
  {"V1", "bones", "positionTimes", "positionValues", "rotationTimes", "rotationValues", "scaleTimes", "scaleValues",
   "influences", "tags", "lods", "groups", "vertexPositions", "normals", "tangentBasis", "attributes", "indices", NULL},
  {"V4a", "bones", "positionTimes", "positionValues", "rotationTimes", "rotationValues", "scaleTimes", "scaleValues",
   "influences", "tags", "lods", "groups", "vertexPositions", "blendData", "normals", "tangentBasis", "texCoords",
   "colors", "indices", NULL},
};

/* A profile for a version the change log describes must list its sections in the log's order.
 * 1 when it does (or the version is not one the log names). */
static int order_ok(const struct x42_profile *p, char *why, size_t cap)
{
  int row = !strcmp(p->name, "V0") ? 0 : !strcmp(p->name, "V1") || !strcmp(p->name, "V2a") ||
            !strcmp(p->name, "V2b") || !strcmp(p->name, "V3") ? 1 : !strcmp(p->name, "V4a") || !strcmp(p->name, "V4b") ? 2 : -1;
  uint32_t s = 0;
  if (row < 0)
    return 1;
  for (int k = 1; log_order[row][k]; k++) {
    if (s < p->nsections && !strcmp(p->sections[s].name, log_order[row][k])) {
      s++;
      continue;
    }
    snprintf(why, cap, "section %u is '%s'; the change log puts '%s' there", s,
             s < p->nsections ? p->sections[s].name : "(none)", log_order[row][k]);
    return 0;
  }
  if (s != p->nsections) {
    snprintf(why, cap, "extra section '%s' after the change log's last", p->sections[s].name);
    return 0;
  }
  return 1;
}

int x42_legacy_decode(struct decode_ctx *ctx, struct model *m, uint32_t version)
{
  struct lx_profiles *ps = malloc(sizeof *ps);
  struct lx x;
  struct mdl_loc loc;
  int rc = -1;
  if (!ps)
    return -1;
  profiles_load(&m->arena, ps, ctx->options);
  memset(&x, 0, sizeof x);
  x.dc = ctx;
  x.diag = ctx->diag;
  x.in = &ctx->in;
  if (ps->user_error) {
    loc = loc_none();
    snprintf(loc.path, sizeof loc.path, "%s", ps->user_error);
    diag_emit(ctx->diag, RULE_X42_LEGACY_PROFILE_BAD, &loc, NULL, "%s", ps->err);
    free(ps);
    return -1;
  }
  if (x42_legacy_forced(ctx->options)) {
    const char *want = x42_legacy_forced(ctx->options);
    x.p = profile_named(ps, want);
    if (!x.p) {
      char known[128] = "";
      for (unsigned i = 0; i < ps->n; i++)
        if (strlen(known) + strlen(ps->p[i].name) + 6 < sizeof known)
          strcat(strcat(strcat(known, *known ? ", " : ""), "x42-"), ps->p[i].name);
      loc = loc_none();
      snprintf(loc.path, sizeof loc.path, "--profile=%s", ctx->options->profile);
      diag_emit(ctx->diag, RULE_X42_LEGACY_PROFILE_BAD, &loc, NULL, "no layout profile '%s' (known: %s)", want, known);
      free(ps);
      return -1;
    }
    if (x.p->version != version) {
      loc = loc_bin(4, "version");
      diag_emit(ctx->diag, RULE_X42_LEGACY_ASSUMPTION, &loc, NULL,
                "the layout of profile %s (version %u) chosen with --profile, not the file's version %u", x.p->name,
                x.p->version, version);
    }
  } else {
    x.p = profile_for(ps, version);
  }
  if (!x.p) {
    free(ps);
    return -1;
  }
  snprintf(ctx->version, sizeof ctx->version, "%s (%u, assumed)", x.p->name, version);
  {
    char why[160];
    if (!order_ok(x.p, why, sizeof why)) {
      loc = loc_none();
      snprintf(loc.path, sizeof loc.path, "%s", x.p->origin);
      diag_emit(ctx->diag, RULE_X42_LEGACY_PROFILE_BAD, &loc, NULL, "%s (the change log's order differs)", why);
      free(ps);
      return -1;
    }
  }
  x.hoff = arena_calloc(&m->arena, x.p->header.n + 1, sizeof *x.hoff);
  x.hpresent = arena_calloc(&m->arena, x.p->header.n + 1, sizeof *x.hpresent);
  x.secs = arena_calloc(&m->arena, x.p->nsections + 1, sizeof *x.secs);
  if (x.hoff && x.hpresent && x.secs) {
    report_assumptions(&x);
    if (layout_walk(&x) == 0) {
      check_header(&x);
      for (uint32_t s = 0; s < x.p->nsections; s++)
        for (uint64_t e = 0; x.secs[s].present && e < x.secs[s].count; e++)
          check_element(&x, (int)s, e);
      check_groups_data(&x);
      check_tracks(&x);
      {
        int rs = section_index(x.p, "rotationValues");
        if (rs >= 0 && x.secs[rs].present && !strcmp(x.secs[rs].fields->v[0].role, "rotation_v2a") && x.secs[rs].count) {
          loc = loc_bin(x.secs[rs].off, "rotationValues");
          diag_emit(ctx->diag, RULE_X42_LEGACY_V2A_SIGN_LOSS, &loc, NULL,
                    "%llu rotations decoded with w >= 0 (PACKED_ROTTRACK, V2a)", (unsigned long long)x.secs[rs].count);
        }
      }
      fill_model(&x, m);
      rc = 0;
    }
  }
  free(ps);
  return rc;
}

/* --- synthetic files per profile (the corpus generator) --------------------------------------- */

static int x42_gen_cond(const struct x42_profile *p, const uint32_t *flagval, const char *cond);

static void put(struct byte_buf *b, enum lp_type t, double v)
{
  switch (t) {
  case LP_U8: case LP_CHAR: buf_u8(b, (uint8_t)v); break;
  case LP_S8: buf_u8(b, (uint8_t)(int8_t)v); break;
  case LP_U16: buf_u16(b, (uint16_t)v); break;
  case LP_S16: buf_u16(b, (uint16_t)(int16_t)v); break;
  case LP_U32: buf_u32(b, (uint32_t)v); break;
  case LP_S32: buf_i32(b, (int32_t)v); break;
  case LP_F32: buf_f32(b, (float)v); break;
  default: break;
  }
}

static uint32_t sample_value(const struct x42_profile *p, const char *field)
{
  for (uint32_t i = 0; i < p->nsample; i++)
    if (!strcmp(p->sample[i].field, field))
      return p->sample[i].value;
  return 0;
}

/* The value a synthetic element holds in component k of field fd (element e of n). */
static double gen_value(const struct x42_profile *p, const struct lp_section *sec, const struct lp_field *fd,
                        uint32_t e, uint32_t n, uint32_t k)
{
  const char *r = fd->role;
  uint32_t nb = sample_value(p, "numBones"), nf = sample_value(p, "numFrames");
  uint32_t per = nb ? sample_value(p, "numPosKeys") / nb : 1; /* keys per track */
  double ang = 0.2 * (e % (per ? per : 1)) + 0.1 * (e / (per ? per : 1)), q[4] = {0, 0, sin(ang / 2), cos(ang / 2)};
  (void)n;
  if (!strcmp(r, "name"))
    return k == 0 ? (double)sec->name[0] : k == 1 ? (double)('0' + e % 10) : 0;
  if (!strcmp(r, "parent"))
    return e == 0 ? LX_NONE16 : e - 1;
  if (!strcmp(r, "bone"))
    return nb ? e % nb : LX_NONE16;
  if (!strcmp(r, "time_normalised"))
    return per > 1 ? floor(65535.0 * (e % per) / (per - 1) + 0.5) : 0;
  if (!strcmp(r, "time_frame"))
    return per > 1 ? floor((double)(nf - 1) * (e % per) / (per - 1) + 0.5) : 0;
  if (!strcmp(r, "position"))
    return k == 0 ? 0.25 * e : k == 2 ? 1 : 0;
  if (!strcmp(r, "scale"))
    return 1;
  if (!strcmp(r, "rotation"))
    return q[k];
  if (!strcmp(r, "rotation_v2a"))
    return q[k];
  if (!strcmp(r, "rotation_s16n"))
    return x42_s16n_encode(q[k]);
  if (!strcmp(r, "position_packed"))
    return x42_range_encode(k == 0 ? 0.25 * e : k == 2 ? 1 : 0, -2, 2);
  if (!strcmp(r, "scale_packed"))
    return x42_range_encode(1, 0.5f, 2);
  if (!strcmp(r, "finite"))
    return fd->count == 12 ? (k == 0 || k == 4 || k == 8 ? 1 : 0) : (double)k;
  if (!strcmp(r, "unit"))
    return (!strcmp(fd->name, "tangent") && k == 0) || (!strcmp(fd->name, "binormal") && k == 1) ||
           (!strcmp(fd->name, "normal") && k == 2);
  if (!strcmp(r, "unit_s8n"))
    return 127 * ((!strcmp(fd->name, "tangent") && k == 0) || (!strcmp(fd->name, "binormal") && k == 1) ||
                  (!strcmp(fd->name, "normal") && k == 2));
  if (!strcmp(r, "max_influences"))
    return 2;
  if (!strcmp(r, "num_influences"))
    return 2;
  if (!strcmp(r, "palette"))
    return k < 2 ? k : 0;
  if (!strcmp(r, "blend_slots"))
    return k < 2 ? k : 0;
  if (!strcmp(r, "blend_weights"))
    return k == 0 ? 128 : k == 1 ? 127 : 0;
  if (!strcmp(r, "vertex_packed") || !strcmp(r, "tc_packed"))
    return 1000.0 * (e + k);
  if (!strcmp(r, "index"))
    return e % 4;
  if (!strcmp(r, "blend")) /* per vertex of a 2-influence group: slot 0, weight 128, slot 1 */
    return e % 3 == 0 ? 0 : e % 3 == 1 ? 128 : 1;
  if (fd->type == LP_U8 && !*r)
    return 200;
  return 0;
}

static int gen_one(const struct x42_profile *p, struct byte_buf *b)
{
  uint32_t flagval[64] = {0};
  buf_u32(b, p->ident);
  buf_u32(b, p->version);
  /* flags the sample turns on, per header field */
  for (uint32_t i = 0; i < p->nsample_flags; i++)
    for (uint32_t k = 0; k < p->nflags; k++)
      if (!strcmp(p->flags[k].name, p->sample_flags[i])) {
        int h = header_index(p, p->flags[k].field);
        if (h >= 0 && h < 64)
          flagval[h] |= p->flags[k].value;
      }
  for (uint32_t i = 0; i < p->header.n; i++) {
    const struct lp_field *f = &p->header.v[i];
    if (f->cond && !x42_gen_cond(p, flagval, f->cond))
      continue;
    for (uint32_t k = 0; k < f->count; k++) {
      double v = 0;
      if (!strcmp(f->role, "flags"))
        v = i < 64 ? flagval[i] : 0;
      else if (!strcmp(f->role, "range"))
        v = strstr(f->name, "Scale") ? (k ? 2 : 0.5) : (k ? 2 : -2);
      else if (!strcmp(f->role, "finite"))
        v = k % 3 == 2 ? 1 : 0;
      else if (!strcmp(f->role, "bone"))
        v = 0;
      else if (!strcmp(f->role, "pad"))
        v = 0;
      else
        v = sample_value(p, f->name);
      put(b, f->type, v);
    }
  }
  for (uint32_t s = 0; s < p->nsections && s < 64; s++) {
    const struct lp_section *sec = &p->sections[s];
    const struct lp_fields *fs = &sec->fields;
    uint32_t n;
    if (sec->cond && !x42_gen_cond(p, flagval, sec->cond))
      continue;
    for (uint32_t v = 0; v < sec->nvariants; v++)
      if (x42_gen_cond(p, flagval, sec->variants[v].cond)) {
        fs = &sec->variants[v].fields;
        break;
      }
    if (!strcmp(sec->count, "blend"))
      n = 3 * sample_value(p, "numVerts"); /* one 2-influence group over every vertex */
    else
      n = sample_value(p, sec->count);
    buf_align(b, p->align);
    for (uint32_t e = 0; e < n; e++)
      for (uint32_t f = 0; f < fs->n; f++) {
        const struct lp_field *fd = &fs->v[f];
        for (uint32_t k = 0; k < fd->count; k++) {
          double v = gen_value(p, sec, fd, e, n, k);
          if (!strcmp(fd->role, "first") && fd->of) {
            int os = section_index(p, fd->of);
            uint32_t total = os >= 0 ? sample_value(p, p->sections[os].count) : 0;
            v = (double)e * (total / (n ? n : 1));
          } else if (!strcmp(fd->role, "span") || !strcmp(fd->role, "span_triangles")) {
            /* the span of the `first` field before it */
            const struct lp_field *first = f ? &fs->v[f - 1] : NULL;
            int os = first && first->of ? section_index(p, first->of) : -1;
            uint32_t total = os >= 0 ? sample_value(p, p->sections[os].count) : 0;
            v = total / (n ? n : 1);
            if (!strcmp(fd->role, "span_triangles"))
              v = floor(v / 3);
          }
          put(b, fd->type, v);
        }
      }
  }
  return b->oom ? -1 : 0;
}

static int x42_gen_cond(const struct x42_profile *p, const uint32_t *flagval, const char *cond)
{
  int neg = 0;
  if (!cond)
    return 1;
  if (*cond == '!')
    neg = 1, cond++;
  for (uint32_t k = 0; k < p->nflags; k++)
    if (!strcmp(p->flags[k].name, cond)) {
      int h = header_index(p, p->flags[k].field);
      return (h >= 0 && h < 64 && (flagval[h] & p->flags[k].value)) != neg;
    }
  return neg;
}

int x42_legacy_generate(const char *outdir)
{
  int rc = 0;
  for (unsigned i = 0; x42_builtin_profiles[i]; i++) {
    struct arena a;
    struct x42_profile p;
    struct byte_buf b;
    char err[200], path[1024];
    FILE *f;
    arena_init(&a);
    buf_init(&b);
    if (x42_profile_parse(x42_builtin_profiles[i], strlen(x42_builtin_profiles[i]), "built-in", &a, &p, err, sizeof err) < 0 ||
        gen_one(&p, &b) < 0) {
      fprintf(stderr, "x42_gen: profile %s: %s\n", x42_builtin_profile_names[i], err);
      rc = -1;
    } else {
      snprintf(path, sizeof path, "%s/legacy-%s.x42", outdir, x42_builtin_profile_names[i]);
      f = fopen(path, "wb");
      if (!f || fwrite(b.data, 1, b.size, f) != b.size)
        rc = -1;
      if (f && fclose(f) != 0)
        rc = -1;
      printf("%s: %zu bytes\n", path, b.size);
    }
    buf_free(&b);
    arena_free(&a);
  }
  return rc;
}
