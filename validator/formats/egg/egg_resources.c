/* egg_resources.c - the files an egg names (eggSyntax: <Texture> file names, their alpha-file
 * scalars, inline <Texture>s of primitives, <File> external eggs), recorded in the model with
 * their line and column for --resources. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "egg.h"
#include "egg_map.h"
#include "mem_bound.h"

/* Value 0 of n when it is a string; NULL for a number or an empty body. */
static const char *value_text(const struct egg_node *n, uint32_t *len)
{
  *len = 0;
  return egg_nvals(n) ? egg_val_str(n, 0, len) : NULL;
}

/* The files recorded so far, one set per kind, when only the first reference to each file is
 * read (decode_ctx.refs_distinct): offsets of their names in the tree's strings, 0 an empty
 * slot; 4 bytes a slot, where a reference is 64 (a million `<Texture>{a}` are one reference). */
struct seen {
  uint32_t *slot;
  size_t cap, count;
};

static size_t seen_hash(const char *s, uint32_t len)
{
  size_t h = 2166136261u;
  for (uint32_t i = 0; i < len; i++)
    h = (h ^ (unsigned char)s[i]) * 16777619u;
  return h ^ (h >> 15);
}

/* The slot of the name s (len bytes), or the empty one where it belongs. */
static uint32_t *seen_probe(const struct seen *set, const char *strs, const char *s, uint32_t len)
{
  size_t k = seen_hash(s, len) & (set->cap - 1);
  for (;; k = (k + 1) & (set->cap - 1)) {
    uint32_t o = set->slot[k];
    if (!o || (egg_str_len(strs + o) == len && !memcmp(strs + o, s, len)))
      return &set->slot[k];
  }
}

/* 1 when s (in the tree's strings) was added before, 0 after adding it, -1 out of memory. */
static int seen_add(struct egg_doc *doc, struct mem_bound *bound, struct seen *set, const char *s, uint32_t len)
{
  const char *strs = doc->tree->strs;
  uint32_t *at;
  /* at most 3/4 full (linear probing still finds a name in a few slots): a slot and a third to
   * two and two thirds a name, and while it grows the old table beside the new, 4 (issue 26) */
  if ((set->count + 1) * 4 > set->cap * 3) {
    size_t ncap = set->cap ? set->cap * 2 : 64;
    uint32_t *old = set->slot, *grown;
    /* --max-memory: the new table is the decode's while both are held, the old one let go */
    if (mem_bound_charge(bound, ncap * sizeof *grown) < 0) {
      doc->map_failures++; /* counted: the decode says it is incomplete (MDL-MEM-002) */
      return -1;
    }
    grown = calloc(ncap, sizeof *grown);
    if (!grown) {
      mem_bound_release(bound, ncap * sizeof *grown);
      doc->map_failures++; /* counted: the decode says it is incomplete */
      return -1;
    }
    set->slot = grown;
    for (size_t i = 0; i < set->cap; i++)
      if (old[i])
        *seen_probe(&(struct seen){grown, ncap, 0}, strs, strs + old[i], egg_str_len(strs + old[i])) = old[i];
    mem_bound_release(bound, set->cap * sizeof *old);
    set->cap = ncap;
    free(old);
  }
  at = seen_probe(set, strs, s, len);
  if (*at)
    return 1;
  *at = (uint32_t)(s - strs);
  set->count++;
  return 0;
}

struct collect {
  struct egg_doc *doc;
  struct model *m;       /* the model the references are added to; NULL: walked (fn) */
  int distinct;          /* decode_ctx.refs_distinct: a file recorded once */
  struct seen seen[2];   /* by enum model_ref_kind */
  struct mem_bound *bound; /* what charges the sets (--max-memory) */
  int skipped;           /* the last ref_read found its file recorded before */
  int (*fn)(const struct model_ref *r, void *user); /* walked: each reference in turn */
  void *user;
  int rc;                /* walked: fn's non-zero return, or -1 out of memory; the walk stops */
};

/* Value 0 of n (a string) as a reference into *r, its path in path (when n has a name) or what:
 * 1, or 0 when n names none, when out of memory, or (c->distinct) when its file was read before.
 * Its name is the tree's copy. */
static int ref_read(struct collect *c, const struct egg_node *n, enum model_ref_kind kind,
                    const char *what, struct model_ref *r, char path[96])
{
  struct egg_doc *doc = c->doc;
  uint32_t len;
  const char *s = value_text(n, &len);
  c->skipped = 0;
  if (!s || !len || n->bad)
    return 0;
  if (c->distinct) {
    int seen = seen_add(doc, c->bound, &c->seen[kind], s, len);
    c->skipped = seen > 0;
    if (seen < 0 && !c->m)
      c->rc = -1; /* walked: the check stops and says so */
    if (seen)
      return 0;
  }
  memset(r, 0, sizeof *r);
  r->kind = (uint8_t)kind;
  r->ref = s;
  r->offset = -1;
  r->path = what;
  egg_val_loc(doc, n, 0, &r->line, &r->column);
  if (egg_name(n)) {
    snprintf(path, 96, "%s %.*s", what, (int)(egg_name_len(n) > 64 ? 64 : egg_name_len(n)), egg_name(n));
    r->path = path;
  }
  return 1;
}

/* Record r (ref_read's, its fields set): a copy appended to the model, its path in the model's
 * arena unless static (NULL when out of memory), or, walked, r handed to fn. */
static struct model_ref *ref_keep(struct collect *c, const struct model_ref *r, const char *what)
{
  struct model_ref *kept;
  if (!c->m) {
    if (!c->rc)
      c->rc = c->fn(r, c->user);
    return (struct model_ref *)r;
  }
  kept = model_ref_add_kept(c->m, r->kind, 0, r->ref, -1, r->line, r->column,
                            r->path == what ? what : arena_strndup(&c->m->arena, r->path, strlen(r->path)));
  if (kept) {
    kept->format = r->format;
    kept->channels = r->channels;
    kept->implied_ext = r->implied_ext;
    kept->alpha_file = r->alpha_file;
    kept->unused = r->unused;
  }
  return kept;
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
  egg_map_init(&last, &doc->map_failures, egg_doc_bound(doc));
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

/* Each file of the tree in turn to ref_keep (c set up), in file order; used: the textures a
 * <TRef> uses, unless all_used. */
static void refs_walk(struct collect *c, const struct egg_map *used, int all_used)
{
  struct egg_doc *doc = c->doc;
  for (struct egg_node *n = doc->root; n && !c->rc; n = egg_next_skip(n, doc->root, refs_descend(doc, n))) {
    struct model_ref r, a;
    char path[96], apath[96];
    const struct egg_node *sc, *alpha;
    uint32_t len;
    const char *s;
    int named;
    switch (n->spec) {
    case S_TEXTURE:
      named = ref_read(c, n, MODEL_REF_TEXTURE, "<Texture>", &r, path);
      if (!named && !c->skipped)
        break; /* it names no file (or out of memory): nor does its alpha file count */
      alpha = egg_scalar_child(n, "alpha-file");
      if (named) {
        r.unused = !all_used && !egg_map_pair_find(used, (uintptr_t)n, 0);
        if ((sc = egg_scalar_child(n, "format")) && (s = value_text(sc, &len)) != NULL) {
          r.format = s; /* the tree's copy, as the name's */
          r.channels = format_channels(r.format);
        }
        r.alpha_file = alpha != NULL;
        if (!ref_keep(c, &r, "<Texture>"))
          break; /* out of memory: the decode says so */
      }
      /* its file is its own even when its texture's was recorded before */
      if (alpha && ref_read(c, alpha, MODEL_REF_TEXTURE, "<Scalar> alpha-file", &a, apath)) {
        a.unused = named && r.unused; /* loaded with its texture or not at all */
        (void)ref_keep(c, &a, "<Scalar> alpha-file");
      }
      break;
    case S_TEXTURE_INLINE:
      if (ref_read(c, n, MODEL_REF_TEXTURE, "<Texture>", &r, path))
        (void)ref_keep(c, &r, "<Texture>");
      break;
    case S_FILE: /* eggSyntax <File>: "the extension .egg is implied" */
      if (ref_read(c, n, MODEL_REF_MODEL, "<File>", &r, path)) {
        r.implied_ext = ".egg";
        (void)ref_keep(c, &r, "<File>");
      }
      break;
    default:
      break;
    }
  }
  for (int k = 0; k < 2; k++) {
    mem_bound_release(c->bound, c->seen[k].cap * sizeof *c->seen[k].slot);
    free(c->seen[k].slot);
  }
}

/* model.ref_walk of a validation (decode_ctx.refs_distinct): the files read from the tree as
 * resources_check asks for them, none kept; the set of those seen (4 bytes a slot) is all it
 * holds, and only while it walks. */
static int egg_ref_walk(const struct model *m, struct mem_bound *bound,
                        int (*fn)(const struct model_ref *r, void *user), void *user)
{
  const struct egg_private *priv = m->format_data;
  struct collect c;
  memset(&c, 0, sizeof c);
  c.doc = egg_tree_of(priv->root)->doc;
  c.distinct = 1;
  c.bound = bound;
  c.fn = fn;
  c.user = user;
  c.doc->window = c.doc->walk_window; /* reads of the text again are the window's, as in the decode */
  refs_walk(&c, NULL, 1);
  c.doc->window = NULL;
  return c.rc;
}

void egg_collect_refs(struct egg_doc *doc, struct model *m)
{
  struct egg_map used;
  struct collect c;
  int all_used; /* the names could not be gathered: every texture counts as used (announced) */
  if (!doc->spec_count[S_TEXTURE] && !doc->spec_count[S_TEXTURE_INLINE] && !doc->spec_count[S_FILE])
    return;
  if (doc->ctx->refs_distinct) {
    /* only resources_check reads them, once each, while the tree is held: walked then */
    m->ref_walk = egg_ref_walk;
    return;
  }
  memset(&c, 0, sizeof c);
  c.doc = doc;
  c.m = m;
  c.bound = egg_doc_bound(doc);
  egg_map_init(&used, &doc->map_failures, egg_doc_bound(doc)); /* a failure is counted: the decode says so */
  /* which textures a <TRef> uses only matters to conversion and comparison */
  all_used = !doc->spec_count[S_TEXTURE] || trefs_collect(doc, &used) < 0;
  refs_walk(&c, &used, all_used);
  egg_map_free(&used);
}
