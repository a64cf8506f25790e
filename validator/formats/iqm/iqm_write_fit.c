/* iqm_write_fit.c - another format's vertex arrays made to meet IQM's rules before they are
 * written (write_opts.foreign; an IQM is rewritten as it was stored), so the file does not warn: colours get the 4 components IQM requires
 * (IQM-VA-006; the missing alpha is opaque, which is what every reader assumes), ubyte blend
 * pairs go in decreasing weight order (IQM-BLD-004; the same influences), and a vertex without any
 * weight (an X42 static group) is bound fully to its first blend index (IQM-BLD-005), announced
 * as MDL-CNV-006 because that changes what deforms it. */
#include <stdio.h>
#include <string.h>

#include "arena.h"
#include "iqm_write.h"
#include "write_loss.h"

/* The little-endian bytes of 1.0 (opaque) in format f, into out; 0 when f is no vformat. */
static uint32_t vformat_one(uint32_t f, unsigned char out[8])
{
  static const unsigned char one[VF_COUNT][8] = {
    [VF_BYTE] = {0x7f}, [VF_UBYTE] = {0xff}, [VF_SHORT] = {0xff, 0x7f}, [VF_USHORT] = {0xff, 0xff},
    [VF_INT] = {0xff, 0xff, 0xff, 0x7f}, [VF_UINT] = {0xff, 0xff, 0xff, 0xff},
    [VF_HALF] = {0x00, 0x3c}, [VF_FLOAT] = {0, 0, 0x80, 0x3f}, [VF_DOUBLE] = {0, 0, 0, 0, 0, 0, 0xf0, 0x3f}};
  if (f >= VF_COUNT)
    return 0;
  memcpy(out, one[f], 8);
  return vformat_bytes(f);
}

/* A colour array of fewer than 4 components, widened with an opaque alpha (other missing
 * components 0, as the comparison reads them). */
static int color_widen(const struct model *m, struct model_varray *va, struct arena *a)
{
  unsigned char alpha[8];
  uint32_t fb = vformat_one(va->format, alpha);
  unsigned char *d;
  if (!fb || va->size >= 4 || !va->data)
    return 0;
  d = arena_calloc(a, (size_t)m->num_vertexes * 4, fb);
  if (!d && m->num_vertexes)
    return -1;
  for (uint32_t v = 0; v < m->num_vertexes; v++) {
    memcpy(d + (size_t)v * 4 * fb, va->data + (size_t)v * va->size * fb, (size_t)va->size * fb);
    memcpy(d + ((size_t)v * 4 + 3) * fb, alpha, fb);
  }
  va->data = d;
  va->size = 4;
  return 1;
}

/* ubyte blend pairs sorted by decreasing weight (stable: equal weights keep their order);
 * a vertex with no weight gets 255 on its first index. Returns 1 when anything changed. */
static int blend_fit(const struct model *m, struct model_varray *ix, struct model_varray *wt,
                     struct arena *a, struct write_losses *l)
{
  uint32_t n = ix->size, unweighted = 0, first = 0;
  unsigned char *di, *dw;
  int changed = 0;
  if (ix->format != VF_UBYTE || wt->format != VF_UBYTE || n != wt->size || n == 0 || n > 4 ||
      !ix->data || !wt->data)
    return 0;
  di = arena_calloc(a, m->num_vertexes, n);
  dw = arena_calloc(a, m->num_vertexes, n);
  if ((!di || !dw) && m->num_vertexes)
    return -1;
  for (uint32_t v = 0; v < m->num_vertexes; v++) {
    unsigned char *pi = di + (size_t)v * n, *pw = dw + (size_t)v * n;
    unsigned sum = 0;
    memcpy(pi, ix->data + (size_t)v * n, n);
    memcpy(pw, wt->data + (size_t)v * n, n);
    for (uint32_t k = 1; k < n; k++)
      for (uint32_t j = k; j > 0 && pw[j] > pw[j - 1]; j--) {
        unsigned char t = pw[j];
        pw[j] = pw[j - 1];
        pw[j - 1] = t;
        t = pi[j];
        pi[j] = pi[j - 1];
        pi[j - 1] = t;
        changed = 1;
      }
    for (uint32_t k = 0; k < n; k++)
      sum += pw[k];
    if (sum == 0) {
      if (!unweighted++)
        first = v;
      pw[0] = 255;
      changed = 1;
    }
  }
  if (unweighted) {
    struct mdl_loc loc = loc_none();
    snprintf(loc.path, sizeof loc.path, "vertexes[%u]", (unsigned)first);
    write_loss(l, RULE_CORE_CONVERT_IQM_UNWEIGHTED, RULE_CORE_COMPARE_VERTEX, &loc,
               "%u vertices (the first: %u)", (unsigned)unweighted, (unsigned)first);
    write_loss_also(l, RULE_CORE_CONVERT_IQM_UNWEIGHTED, RULE_CORE_COMPARE_TRIANGLES);
  }
  if (changed) {
    ix->data = di;
    wt->data = dw;
  }
  return changed;
}

int iqm_model_fit(const struct model *m, struct arena *a, struct model *fit, struct write_losses *l)
{
  struct model_varray *vas;
  int changed = 0, rc;
  int ix = -1, wt = -1;
  if (!m->num_varrays)
    return 0;
  vas = arena_calloc(a, m->num_varrays, sizeof *vas);
  if (!vas)
    return -1;
  memcpy(vas, m->varrays, m->num_varrays * sizeof *vas);
  for (uint32_t i = 0; i < m->num_varrays; i++) {
    if (vas[i].type == VT_COLOR) {
      if ((rc = color_widen(m, &vas[i], a)) < 0)
        return -1;
      changed |= rc;
    } else if (vas[i].type == VT_BLENDINDEXES && ix < 0) {
      ix = (int)i;
    } else if (vas[i].type == VT_BLENDWEIGHTS && wt < 0) {
      wt = (int)i;
    }
  }
  if (ix >= 0 && wt >= 0) {
    if ((rc = blend_fit(m, &vas[ix], &vas[wt], a, l)) < 0)
      return -1;
    changed |= rc;
  }
  if (!changed)
    return 0;
  *fit = *m;
  fit->varrays = vas;
  return 1;
}
