/* egg_resources.c - the files an egg names (eggSyntax: <Texture> file names, their alpha-file
 * scalars, inline <Texture>s of primitives, <File> external eggs), recorded in the model with
 * their line and column for --resources. */
#include <stdio.h>
#include <strings.h>

#include "egg.h"
#include "egg_map.h"

/* Value 0 of n when it is a string; NULL for a number or an empty body. */
static const char *value_text(const struct egg_node *n, uint32_t *len)
{
  *len = 0;
  return egg_nvals(n) ? egg_val_str(n, 0, len) : NULL;
}

static struct model_ref *ref_add(struct egg_doc *doc, struct model *m, const struct egg_node *n,
                                 enum model_ref_kind kind, const char *what)
{
  uint32_t len;
  unsigned line, col;
  char path[96];
  const char *s = value_text(n, &len);
  if (!s || !len || n->bad)
    return NULL;
  egg_val_loc(doc, n, 0, &line, &col);
  if (egg_name(n))
    snprintf(path, sizeof path, "%s %.*s", what, (int)(egg_name_len(n) > 64 ? 64 : egg_name_len(n)), egg_name(n));
  else
    snprintf(path, sizeof path, "%s", what);
  return model_ref_add(m, kind, 0, s, len, -1, line, col, path);
}

/* The channels a <Scalar> format asks of the image (eggSyntax <Texture>), 0 for an unknown name:
 * the content check of core/resources.c compares it with what the image holds. */
static unsigned format_channels(const char *f)
{
  static const struct { const char *name; unsigned ch; } t[] = {
    {"rgba", 4}, {"rgbm", 4}, {"rgba12", 4}, {"rgba8", 4}, {"rgba4", 4}, {"rgb", 3},
    {"rgb12", 3}, {"rgb8", 3}, {"rgb5", 3}, {"rgb332", 3}, {"luminance_alpha", 2},
    {"luminance-alpha", 2}, {"red", 1}, {"green", 1}, {"blue", 1}, {"alpha", 1},
    {"luminance", 1}};
  for (size_t i = 0; f && i < sizeof t / sizeof t[0]; i++)
    if (!strcasecmp(f, t[i].name))
      return t[i].ch;
  return 0;
}

/* Textures and <File>s sit in node lists, inline textures in primitives (and the curves of NURBS
 * trims): pools and animation tables hold none, and without inline textures nor do primitives. */
static int refs_descend(const struct egg_doc *doc, const struct egg_node *n)
{
  if (n->spec == S_ROOT || egg_is_group(n->spec))
    return 1;
  if (n->spec == S_VPOOL || n->spec == S_TABLE || n->spec == S_BUNDLE)
    return 0;
  return doc->spec_count[S_TEXTURE_INLINE] != 0;
}

/* The <Texture>s a <TRef> of some primitive uses, into *used (keyed by node); 0, or -1 out of
 * memory. Panda3D loads only those (EggLoader gathers the used textures): a <Texture> no primitive
 * names is never loaded, so no conversion loses it. A <TRef> names the last <Texture> of its name
 * read before it, at any depth (Panda3D's parser keeps one name table for the file), so a texture
 * redefined under the same name before any <TRef> is as unused as one never named. */
static int trefs_collect(struct egg_doc *doc, struct egg_map *used)
{
  struct egg_map last; /* texture name -> its last <Texture> so far */
  /* the name the <TRef> before this one read, when its texture is marked used since the last
   * <Texture>: a million polygons naming one texture (one shared copy of the name, str_value)
   * are then one lookup, not a million */
  const char *done = NULL;
  uint32_t done_len = 0;
  int rc = 0;
  egg_map_init(&last, &doc->map_failures);
  for (const struct egg_node *n = doc->root; n && !rc; n = egg_next_skip(n, doc->root, n->spec != S_VPOOL &&
                                                                   n->spec != S_TABLE && n->spec != S_BUNDLE)) {
    uint32_t len;
    const char *s;
    struct egg_map_ent *e;
    if (n->spec == S_TEXTURE && egg_name(n)) {
      done = NULL; /* the name may now be another texture's */
      if (!(e = egg_map_at(&last, egg_name(n), egg_name_len(n))))
        rc = -1;
      else
        e->val = (void *)(uintptr_t)n;
    } else if (n->spec == S_TREF && !n->bad && (s = value_text(n, &len)) != NULL &&
               !(s == done && len == done_len)) {
      if ((e = egg_map_find(&last, s, len)) != NULL && e->val) {
        if (!egg_map_pair(used, (uintptr_t)e->val, 0)) {
          rc = -1;
        } else {
          done = s;
          done_len = len;
        }
      }
    }
  }
  egg_map_free(&last);
  return rc;
}

void egg_collect_refs(struct egg_doc *doc, struct model *m)
{
  struct egg_map used;
  int all_used; /* the names could not be gathered: every texture counts as used (announced) */
  if (!doc->spec_count[S_TEXTURE] && !doc->spec_count[S_TEXTURE_INLINE] && !doc->spec_count[S_FILE])
    return;
  egg_map_init(&used, &doc->map_failures); /* a failure is counted: the decode says so */
  all_used = !doc->spec_count[S_TEXTURE] || trefs_collect(doc, &used) < 0;
  for (struct egg_node *n = doc->root; n; n = egg_next_skip(n, doc->root, refs_descend(doc, n))) {
    struct model_ref *r;
    const struct egg_node *sc;
    uint32_t len;
    const char *s;
    switch (n->spec) {
    case S_TEXTURE:
      if (!(r = ref_add(doc, m, n, MODEL_REF_TEXTURE, "<Texture>")))
        break;
      r->unused = !all_used && !egg_map_pair_find(&used, (uintptr_t)n, 0);
      if ((sc = egg_scalar_child(n, "format")) && (s = value_text(sc, &len)) != NULL)
        if ((r->format = arena_strndup(&m->arena, s, len)) != NULL)
          r->channels = format_channels(r->format);
      if ((sc = egg_scalar_child(n, "alpha-file")) != NULL) {
        struct model_ref *a;
        r->alpha_file = 1;
        if ((a = ref_add(doc, m, sc, MODEL_REF_TEXTURE, "<Scalar> alpha-file")) != NULL)
          a->unused = r->unused; /* loaded with its texture or not at all */
      }
      break;
    case S_TEXTURE_INLINE:
      (void)ref_add(doc, m, n, MODEL_REF_TEXTURE, "<Texture>");
      break;
    case S_FILE: /* eggSyntax <File>: "the extension .egg is implied" */
      if ((r = ref_add(doc, m, n, MODEL_REF_MODEL, "<File>")) != NULL)
        r->implied_ext = ".egg";
      break;
    default:
      break;
    }
  }
  egg_map_free(&used);
}
