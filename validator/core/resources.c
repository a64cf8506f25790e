/* resources.c - resolve the files a model names along the model's folder and the search path,
 * then check what is there by content (image headers, an external egg's text).
 *
 * Every candidate path is normalised lexically (".", "..") and followed only while it stays
 * under one of the roots (the model's folder and the search folders): a reference that escapes
 * them all, or is absolute, is reported and never opened, so checking a repository cannot read
 * outside it. Inside, the path is followed one component at a time from the root's real path,
 * a symbolic link's target judged before anything under it is looked at: a link in the tree
 * that leads out is reported the same way, and what lies outside (whether a file exists there,
 * the letter case of its folders) never shows in the report.
 * Each distinct reference is checked once, where the model first names it.
 * A model read from an archive (mdl_options.resource_tree) resolves among the archive's members
 * by the same rules: roots are folders of the archive, a reference that climbs out of them (or out
 * of the archive) is outside, letter case is matched exactly first; the archive has no links. */
#define _GNU_SOURCE
#include "resources.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#include "format.h"
#include "image_info.h"

#define RES_MAX_ROOTS 32
#define RES_PATH_MAX 4096
#define RES_MAX_LINKS 40 /* as the kernel's limit: more is a loop */
/* Bytes read from a referenced file: image headers sit at the start (a JPEG's frame header may
 * follow large metadata segments), and an external egg is validated as an input of its own. */
#define RES_HEAD_MAX (1u << 20)

struct res_roots {
  char *dir[RES_MAX_ROOTS]; /* absolute, normalised; dir[0] the model's folder when it has one */
  char *given[RES_MAX_ROOTS]; /* each as the user named it, for the paths reports show */
  char *real[RES_MAX_ROOTS];  /* its real path, NULL when it does not exist */
  size_t n;
  int out_of_memory;        /* a root was dropped: a reference could be reported missing */
  char shown[512];          /* the roots as the messages list them */
  const mdl_resource_tree *tree; /* resolve among these files; dir[] are then "/"-rooted paths
                                  * inside it, real[] copies of them */
};

/* Normalise an absolute path in place: no "." or "..", no repeated or trailing slash. */
static void path_normalise(char *p)
{
  char *out = p, *s = p;
  while (*s) {
    char *e;
    size_t len;
    while (*s == '/')
      s++;
    e = s + strcspn(s, "/");
    len = (size_t)(e - s);
    if (len == 0 || (len == 1 && s[0] == '.')) {
      /* nothing */
    } else if (len == 2 && s[0] == '.' && s[1] == '.') {
      while (out > p && *--out != '/')
        ;
    } else {
      *out++ = '/';
      memmove(out, s, len);
      out += len;
    }
    s = e;
  }
  if (out == p)
    *out++ = '/';
  *out = 0;
}

/* An absolute normalised path for dir/rel (rel relative), or -1 when too long. */
static int path_make(char *out, size_t cap, const char *dir, const char *rel)
{
  char cwd[RES_PATH_MAX];
  int n;
  if (dir[0] == '/')
    n = snprintf(out, cap, "%s/%s", dir, rel);
  else if (getcwd(cwd, sizeof cwd))
    n = snprintf(out, cap, "%s/%s/%s", cwd, dir, rel);
  else
    return -1;
  if (n < 0 || (size_t)n >= cap)
    return -1;
  path_normalise(out);
  return 0;
}

static int path_under(const char *p, const char *root)
{
  size_t n = strlen(root);
  if (n == 1)
    return 1; /* "/" */
  return !strncmp(p, root, n) && (p[n] == 0 || p[n] == '/');
}

static void roots_add(struct res_roots *r, const char *dir, size_t len)
{
  char rel[RES_PATH_MAX], abs[RES_PATH_MAX];
  if (r->n >= RES_MAX_ROOTS || len == 0 || len >= sizeof rel)
    return;
  memcpy(rel, dir, len);
  rel[len] = 0;
  if (path_make(abs, sizeof abs, rel, ".") < 0)
    return;
  if (!(r->dir[r->n] = strdup(abs)) || !(r->given[r->n] = strdup(rel))) {
    free(r->dir[r->n]);
    free(r->given[r->n]);
    r->dir[r->n] = r->given[r->n] = NULL;
    r->out_of_memory = 1;
    return;
  }
  r->real[r->n] = realpath(abs, NULL);
  if (!r->real[r->n] && errno == ENOMEM)
    r->out_of_memory = 1; /* read as "no such folder", every file under it would be outside */
  r->n++;
  snprintf(r->shown + strlen(r->shown), sizeof r->shown - strlen(r->shown), "%s%.*s",
           r->n > 1 ? ", " : "", (int)len, dir);
}

/* dir + "/" + rel inside a tree, as "/"-rooted normalised text; -1 when too long or when a ".."
 * climbs above the tree's root (out of the archive). */
static int tree_make(char *out, size_t cap, const char *dir, const char *rel)
{
  char tmp[RES_PATH_MAX];
  size_t o = 0;
  const char *s;
  if ((size_t)snprintf(tmp, sizeof tmp, "%s/%s", dir, rel) >= sizeof tmp || cap < 2)
    return -1;
  for (s = tmp; *s;) {
    size_t len;
    while (*s == '/')
      s++;
    len = strcspn(s, "/");
    if (len == 0 || (len == 1 && s[0] == '.')) {
      /* nothing */
    } else if (len == 2 && s[0] == '.' && s[1] == '.') {
      if (o == 0)
        return -1;
      while (o > 0 && out[--o] != '/')
        ;
    } else {
      if (o + 1 + len >= cap)
        return -1;
      out[o++] = '/';
      memcpy(out + o, s, len);
      o += len;
    }
    s += len;
  }
  if (o == 0)
    out[o++] = '/';
  out[o] = 0;
  return 0;
}

/* A folder of the tree as a root: rel is relative to the tree's root (an absolute folder names
 * nothing in an archive and is left out). */
static void tree_roots_add(struct res_roots *r, const char *rel, size_t len)
{
  char given[RES_PATH_MAX], abs[RES_PATH_MAX];
  if (r->n >= RES_MAX_ROOTS || len == 0 || len >= sizeof given || rel[0] == '/')
    return;
  memcpy(given, rel, len);
  given[len] = 0;
  if (tree_make(abs, sizeof abs, "/", given) < 0)
    return;
  snprintf(given, sizeof given, "%s:%s", r->tree->label, abs[1] ? abs + 1 : "."); /* "." the root */
  if (!(r->dir[r->n] = strdup(abs)) || !(r->given[r->n] = strdup(given)) ||
      !(r->real[r->n] = strdup(abs))) {
    free(r->dir[r->n]);
    free(r->given[r->n]);
    r->dir[r->n] = r->given[r->n] = NULL;
    r->out_of_memory = 1;
    return;
  }
  r->n++;
  snprintf(r->shown + strlen(r->shown), sizeof r->shown - strlen(r->shown), "%s%s",
           r->n > 1 ? ", " : "", given);
}

static void roots_init(struct res_roots *r, const char *model_path, const char *search,
                       const mdl_resource_tree *tree)
{
  const char *slash = model_path && strcmp(model_path, "-") ? strrchr(model_path, '/') : NULL;
  memset(r, 0, sizeof *r);
  if (tree) {
    r->tree = tree;
    slash = strrchr(tree->model, '/');
    tree_roots_add(r, slash ? tree->model : ".", slash ? (size_t)(slash - tree->model) : 1);
    for (const char *s = search; s && *s;) {
      size_t len = strcspn(s, ":");
      tree_roots_add(r, s, len);
      s += len + (s[len] == ':');
    }
    return;
  }
  if (model_path && strcmp(model_path, "-"))
    roots_add(r, slash ? model_path : ".", slash ? (size_t)(slash - model_path) + (slash == model_path) : 1);
  for (const char *s = search; s && *s;) {
    size_t len = strcspn(s, ":");
    roots_add(r, s, len);
    s += len + (s[len] == ':');
  }
}

static void roots_free(struct res_roots *r)
{
  for (size_t i = 0; i < r->n; i++) {
    free(r->dir[i]);
    free(r->given[i]);
    free(r->real[i]);
  }
}

/* The entry of dir whose name equals name ignoring ASCII case, copied to out; -1 when none. */
static int dir_find_nocase(const char *dir, const char *name, size_t len, char *out, size_t cap)
{
  DIR *d = opendir(dir);
  struct dirent *e;
  int found = -1;
  if (!d)
    return -1;
  while ((e = readdir(d)) != NULL)
    if (strlen(e->d_name) == len && !strncasecmp(e->d_name, name, len) && strlen(e->d_name) < cap) {
      strcpy(out, e->d_name);
      found = 0;
      break;
    }
  closedir(d);
  return found;
}

enum res_status { RES_FOUND, RES_CASE, RES_MISSING, RES_OUTSIDE, RES_LINK_OUTSIDE };

/* The root whose real path holds p (absolute, normalised, real up to its last component), or -1. */
static int real_root_of(const struct res_roots *r, const char *p)
{
  for (size_t k = 0; k < r->n; k++)
    if (r->real[k] && path_under(p, r->real[k]))
      return (int)k;
  return -1;
}

/* The next component: from ext (a link's target being followed) first, else from rel. */
static const char *next_component(const char *ext, size_t *ei, const char *rel, size_t *ri,
                                  size_t *len, int *top)
{
  while (ext[*ei] == '/')
    (*ei)++;
  if (ext[*ei]) {
    const char *c = ext + *ei;
    *len = strcspn(c, "/");
    *ei += *len;
    *top = 0;
    return c;
  }
  while (rel[*ri] == '/')
    (*ri)++;
  if (!rel[*ri])
    return NULL;
  *len = strcspn(rel + *ri, "/");
  *ri += *len;
  *top = 1;
  return rel + *ri - *len;
}

/* Follow rel from start (the real path of a root) component by component, as the kernel would,
 * without ever looking at a path outside every root's real path: each component is looked up in
 * a folder already known to be inside, and a symbolic link's target is judged as text (folded)
 * before anything it names is looked at, so nothing outside is touched, not even to learn
 * whether it exists. nocase: a component missing in its exact letter case may match an entry of
 * its folder in another case; rel's own components are then rewritten in that case. Returns
 * RES_FOUND with the file's real path in real (no links, no "..": opening it opens what was
 * checked), RES_MISSING, or RES_LINK_OUTSIDE with *link_end the length of rel up to the component
 * whose link leads out. */
static enum res_status walk_beneath(const struct res_roots *r, const char *start, char *rel, int nocase,
                                    char *real, size_t cap, size_t *link_end)
{
  char ext[RES_PATH_MAX], next[RES_PATH_MAX], target[RES_PATH_MAX], folded[2 * RES_PATH_MAX + 2];
  size_t ei = 0, ri = 0, top_end = 0, len;
  int links = 0, top;
  const char *c;
  struct stat st;
  ext[0] = 0;
  if (strlen(start) >= cap)
    return RES_MISSING;
  strcpy(real, start);
  while ((c = next_component(ext, &ei, rel, &ri, &len, &top)) != NULL) {
    ssize_t n;
    int k;
    if (top)
      top_end = ri;
    if (len == 1 && c[0] == '.')
      continue;
    if (len == 2 && c[0] == '.' && c[1] == '.') { /* only in a link's target: rel is folded */
      char *slash = strrchr(real, '/');
      slash[slash == real] = 0;
      if (real_root_of(r, real) < 0) {
        *link_end = top_end;
        return RES_LINK_OUTSIDE;
      }
      continue;
    }
    if (len >= 256 || (size_t)snprintf(next, sizeof next, "%s/%.*s", strcmp(real, "/") ? real : "",
                                       (int)len, c) >= sizeof next)
      return RES_MISSING;
    if (lstat(next, &st) != 0) {
      char name[256];
      if (!nocase || dir_find_nocase(real, c, len, name, sizeof name) < 0)
        return RES_MISSING;
      if (top)
        memcpy(rel + ri - len, name, len); /* the same length: only ASCII letter case differs */
      snprintf(next, sizeof next, "%s/%s", strcmp(real, "/") ? real : "", name);
      if (lstat(next, &st) != 0)
        return RES_MISSING;
    }
    if (S_ISLNK(st.st_mode)) {
      if (++links > RES_MAX_LINKS || (n = readlink(next, target, sizeof target - 1)) < 0)
        return RES_MISSING;
      target[n] = 0;
      snprintf(folded, sizeof folded, "%s/%s", target[0] == '/' ? "" : real, target);
      path_normalise(folded);
      if ((k = real_root_of(r, folded)) < 0) {
        *link_end = top_end;
        return RES_LINK_OUTSIDE;
      }
      /* go on from that root's real path: the target's rest, then what was left to follow */
      if ((size_t)snprintf(next, sizeof next, "%s/%s",
                           strlen(r->real[k]) == 1 ? folded : folded + strlen(r->real[k]),
                           ext + ei) >= sizeof next)
        return RES_MISSING;
      strcpy(ext, next);
      ei = 0;
      strcpy(real, r->real[k]);
      continue;
    }
    if (strlen(next) >= cap)
      return RES_MISSING;
    strcpy(real, next);
    if (S_ISDIR(st.st_mode))
      continue;
    /* not a folder: it ends the path, or the path names nothing */
    while (ext[ei] == '/' || (ext[ei] == '.' && (ext[ei + 1] == '/' || !ext[ei + 1])))
      ei++;
    while (rel[ri] == '/')
      ri++;
    return !ext[ei] && !rel[ri] && S_ISREG(st.st_mode) ? RES_FOUND : RES_MISSING;
  }
  return RES_MISSING; /* a folder */
}

/* abs (under root k) as the user would write it: the root as given, then the rest. */
static void path_show(const struct res_roots *r, size_t k, const char *abs, char *out, size_t cap)
{
  const char *rest = abs + strlen(r->dir[k]);
  if (strlen(r->dir[k]) == 1)
    rest = abs; /* root "/" */
  snprintf(out, cap, "%s%s%s", r->given[k], *rest == '/' || !*rest ? "" : "/", rest);
}

/* resolve() among the files of a tree: the same order (exact case through every root, then any
 * case), containment decided on the text before any lookup; real gets the name as stored. */
static enum res_status tree_resolve(const struct res_roots *r, const char *ref, char *out, size_t cap,
                                    char *real, size_t rcap)
{
  char cand[RES_PATH_MAX];
  int inside = 0;
  for (int pass = 0; pass < 2; pass++)
    for (size_t i = 0; i < r->n; i++) {
      size_t k;
      if (tree_make(cand, sizeof cand, r->dir[i], ref) < 0)
        continue; /* climbs out of the archive */
      for (k = 0; k < r->n && !path_under(cand, r->dir[k]); k++)
        ;
      if (k == r->n)
        continue;
      inside = 1;
      if (r->tree->find(r->tree->user, cand + 1, pass, real, rcap) == 1) {
        snprintf(out, cap, "%s:%s", r->tree->label, real);
        return pass ? RES_CASE : RES_FOUND;
      }
    }
  return inside ? RES_MISSING : RES_OUTSIDE;
}

/* Where ref leads: the first root holding it exactly, else the first holding it in another
 * letter case; shown (as the user writes it) in out, the file's real path in real. Containment
 * is decided before any lookup: a candidate that leaves every root as text is not looked at, one
 * inside is followed only inside (walk_beneath). */
static enum res_status resolve(const struct res_roots *r, const char *ref, char *out, size_t cap,
                               char *real, size_t rcap)
{
  char cand[RES_PATH_MAX];
  int inside = 0;
  if (ref[0] == '/' || ref[0] == '\\' || (ref[0] && ref[1] == ':'))
    return RES_OUTSIDE; /* absolute (POSIX or a drive letter): tied to the author's machine */
  if (r->tree)
    return tree_resolve(r, ref, out, cap, real, rcap);
  for (int pass = 0; pass < 2; pass++)
    for (size_t i = 0; i < r->n; i++) {
      size_t k, root_len, link_end = 0;
      enum res_status st;
      if (path_make(cand, sizeof cand, r->dir[i], ref) < 0)
        continue;
      for (k = 0; k < r->n && !path_under(cand, r->dir[k]); k++)
        ;
      if (k == r->n)
        continue;
      inside = 1;
      if (!r->real[k])
        continue; /* the root does not exist */
      root_len = strlen(r->dir[k]) == 1 ? 0 : strlen(r->dir[k]);
      st = walk_beneath(r, r->real[k], cand + root_len, pass, real, rcap, &link_end);
      if (st == RES_FOUND) {
        path_show(r, k, cand, out, cap);
        return pass ? RES_CASE : RES_FOUND;
      }
      if (st == RES_LINK_OUTSIDE) {
        cand[root_len + link_end] = 0;
        path_show(r, k, cand, out, cap);
        return RES_LINK_OUTSIDE;
      }
    }
  return inside ? RES_MISSING : RES_OUTSIDE;
}

/* The first RES_HEAD_MAX bytes of a regular file; NULL with a reason in why (and *oom set when
 * the reason is a failed allocation: no finding about the file, but a check that could not run). */
static unsigned char *head_read(const char *path, size_t *n, char *why, size_t cap, int *oom)
{
  int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
  struct stat st;
  unsigned char *buf;
  ssize_t got;
  *n = 0;
  if (fd < 0 || fstat(fd, &st) < 0 || !S_ISREG(st.st_mode)) {
    snprintf(why, cap, "cannot read: %s", fd < 0 ? strerror(errno) : "not a regular file");
    if (fd >= 0)
      close(fd);
    return NULL;
  }
  if (!(buf = malloc(RES_HEAD_MAX))) {
    close(fd);
    *oom = 1;
    return NULL;
  }
  while (*n < RES_HEAD_MAX && (got = read(fd, buf + *n, RES_HEAD_MAX - *n)) != 0) {
    if (got < 0 && errno == EINTR)
      continue;
    if (got < 0) {
      snprintf(why, cap, "cannot read: %s", strerror(errno));
      free(buf);
      close(fd);
      return NULL;
    }
    *n += (size_t)got;
  }
  close(fd);
  return buf;
}

/* head_read() of a file of the tree, by its stored name. */
static unsigned char *tree_head_read(const mdl_resource_tree *t, const char *name, size_t *n, char *why,
                                     size_t cap, int *oom)
{
  unsigned char *buf = malloc(RES_HEAD_MAX);
  long long got;
  *n = 0;
  if (!buf) {
    *oom = 1;
    return NULL;
  }
  why[0] = 0;
  if ((got = t->read(t->user, name, buf, RES_HEAD_MAX, why, cap)) < 0 || got > RES_HEAD_MAX) {
    if (!why[0])
      snprintf(why, cap, "cannot read");
    free(buf);
    return NULL;
  }
  *n = (size_t)got;
  return buf;
}

static int is_pow2(unsigned v)
{
  return v && !(v & (v - 1));
}

struct res_ctx {
  struct diag_sink *sink;
  const mdl_options *o;
  const struct res_roots *roots;
};

static struct mdl_loc ref_loc(const struct model_ref *ref)
{
  if (ref->offset >= 0)
    return loc_bin((uint64_t)ref->offset, "%s", ref->path);
  if (ref->line)
    return loc_text(ref->line, ref->column, "%s", ref->path);
  {
    struct mdl_loc l = loc_none();
    snprintf(l.path, sizeof l.path, "%s", ref->path);
    return l;
  }
}

/* Check what the file holds: an image for a texture, an egg for an external model. Fills res
 * (image fields) and returns 0, or -1 after reporting why it is unusable. */
static int content_check(struct res_ctx *x, const struct model_ref *ref, const char *file,
                         const char *real, mdl_resource *res, const struct mdl_loc *loc)
{
  char why[300];
  size_t n;
  int oom = 0;
  unsigned char *data = x->roots->tree ? tree_head_read(x->roots->tree, real, &n, why, sizeof why, &oom)
                                       : head_read(real, &n, why, sizeof why, &oom);
  enum rule_index bad = ref->kind == MODEL_REF_MODEL ? RULE_CORE_EXTERNAL_MODEL_UNREADABLE
                        : ref->conventional ? RULE_CORE_MATERIAL_TEXTURE_UNREADABLE
                                            : RULE_CORE_TEXTURE_UNREADABLE;
  if (oom) { /* the file was not looked at: the fatal out-of-memory, never a clean pass */
    diag_out_of_memory(x->sink, "a referenced file's first bytes");
    return -1;
  }
  if (data && ref->kind == MODEL_REF_MODEL) {
    const struct mdl_format *f = format_detect(data, n, NULL); /* content, not name */
    const struct mdl_format *named = format_by_extension(file);
    if (!f || f != named)
      snprintf(why, sizeof why, "holds %s, not %s", f ? f->name : "no known format",
               named ? named->name : "a model");
    else {
      free(data);
      return 0;
    }
  } else if (data) {
    struct image_info im;
    if (image_info_read(data, n, &im) == 0) {
      unsigned want = ref->channels;
      res->image = im.kind;
      res->width = im.width;
      res->height = im.height;
      res->channels = im.channels;
      free(data);
      if (!is_pow2(im.width) || !is_pow2(im.height))
        diag_emit(x->sink, RULE_CORE_TEXTURE_NOT_POWER_OF_TWO, loc, "a power of two in each dimension",
                  "'%s' is %ux%u", ref->ref, im.width, im.height);
      if (want && im.channels && want != im.channels && !ref->alpha_file)
        diag_emit(x->sink, RULE_CORE_TEXTURE_FORMAT_CHANNELS, loc, NULL,
                  "'%s' has %u channel%s where <Scalar> format { %s } asks for %u", ref->ref,
                  im.channels, im.channels == 1 ? "" : "s", ref->format, want);
      return 0;
    }
    snprintf(why, sizeof why, "%s", n ? "no PNG, JPEG, TGA, BMP, DDS, SGI, TIFF or EXR header parses"
                                      : "the file is empty");
  }
  free(data);
  diag_emit(x->sink, bad, loc, why, "%s", ref->ref);
  return -1;
}

static const char *kind_name(const struct model_ref *ref)
{
  return ref->kind == MODEL_REF_MODEL ? "model" : ref->conventional ? "material" : "texture";
}

/* The name a reference is looked up by: without an extension, the one its format implies
 * (set by the decoder: ref->implied_ext). */
static void ref_name(const struct model_ref *ref, char *out, size_t cap)
{
  const char *base = strrchr(ref->ref, '/');
  base = base ? base + 1 : ref->ref;
  snprintf(out, cap, "%s%s", ref->ref, ref->implied_ext && !strchr(base, '.') ? ref->implied_ext : "");
}

static void check_one(struct res_ctx *x, const struct model_ref *ref)
{
  char name[RES_PATH_MAX], file[RES_PATH_MAX], real[RES_PATH_MAX];
  struct mdl_loc loc = ref_loc(ref);
  mdl_resource res;
  enum res_status st;
  memset(&res, 0, sizeof res);
  res.ref = ref->ref;
  res.kind = kind_name(ref);
  res.resolved_path = "";
  res.image = "";
  res.offset = ref->offset;
  res.line = ref->line;
  res.column = ref->column;
  res.path = ref->path;
  file[0] = 0;
  ref_name(ref, name, sizeof name);
  if (ref->kind == MODEL_REF_MODEL && !format_by_extension(name)) {
    /* an external model is validated and quoted as an input of its own: only a file named as a
     * model (the formats' extensions) is opened, never a configuration that merely parses */
    res.status = "unreadable";
    diag_emit(x->sink, RULE_CORE_EXTERNAL_MODEL_UNREADABLE, &loc,
              "its name has no model file extension; not opened", "%s", ref->ref);
    if (x->o->on_resource)
      x->o->on_resource(&res, x->o->user);
    return;
  }
  st = x->roots->n ? resolve(x->roots, name, file, sizeof file, real, sizeof real) : RES_MISSING;
  switch (st) {
  case RES_OUTSIDE:
    res.status = "outside";
    diag_emit(x->sink, RULE_CORE_RESOURCE_OUTSIDE_ROOTS, &loc, x->roots->shown, "%s", ref->ref);
    break;
  case RES_LINK_OUTSIDE: {
    char where[RES_PATH_MAX + 600];
    res.status = "outside";
    snprintf(where, sizeof where, "%s; %s is a symbolic link that leads out", x->roots->shown, file);
    diag_emit(x->sink, RULE_CORE_RESOURCE_OUTSIDE_ROOTS, &loc, where, "%s", ref->ref);
    break;
  }
  case RES_MISSING:
    res.status = "missing";
    diag_emit(x->sink, ref->conventional ? RULE_CORE_MATERIAL_TEXTURE_MISSING : RULE_CORE_RESOURCE_MISSING,
              &loc, x->roots->n ? x->roots->shown : "no folder to search (standard input)", "%s", ref->ref);
    break;
  case RES_CASE:
    diag_emit(x->sink, RULE_CORE_RESOURCE_CASE_MISMATCH, &loc, file, "%s", ref->ref);
    /* the file is there on this system, so its content is checked too */
    /* fall through */
  case RES_FOUND:
    res.status = st == RES_CASE ? "case-mismatch" : "found";
    res.resolved_path = file;
    if (content_check(x, ref, file, real, &res, &loc) < 0)
      res.status = "unreadable";
    break;
  }
  if (x->o->on_resource)
    x->o->on_resource(&res, x->o->user);
}

/* Distinct references, so each is checked once however often the model names it (an egg's
 * inline <Texture> per primitive): an open-addressing set of the entries already checked. */
struct ref_set {
  const struct model_ref **v;
  size_t cap; /* a power of two, at least twice the references */
};

static size_t ref_hash(const struct model_ref *r)
{
  size_t h = 2166136261u ^ r->kind ^ (size_t)r->conventional << 4;
  for (const unsigned char *s = (const unsigned char *)r->ref; *s; s++)
    h = (h ^ *s) * 16777619u;
  return h;
}

/* 1 when an equal reference was added before (or the set could not be made), else 0 after
 * adding it. */
static int ref_seen(struct ref_set *set, const struct model_ref *r)
{
  size_t k;
  for (k = ref_hash(r) & (set->cap - 1); set->v[k]; k = (k + 1) & (set->cap - 1))
    if (set->v[k]->kind == r->kind && set->v[k]->conventional == r->conventional &&
        !strcmp(set->v[k]->ref, r->ref))
      return 1;
  set->v[k] = r;
  return 0;
}

/* model.ref_walk's fn: each distinct reference, checked as resources_check's loop would. */
static int check_walked(const struct model_ref *ref, void *user)
{
  if (!ref->conventional || image_file_named(ref->ref))
    check_one(user, ref);
  return 0;
}

void resources_check(struct diag_sink *sink, const struct model *m, const char *model_path,
                     const mdl_options *options)
{
  struct res_roots roots;
  struct res_ctx x;
  struct ref_set set = {NULL, 16};
  while (set.cap < 2 * (size_t)m->num_refs)
    set.cap *= 2;
  set.v = calloc(set.cap, sizeof *set.v);
  roots_init(&roots, model_path, options->resources, options->resource_tree);
  x.sink = sink;
  x.o = options;
  x.roots = &roots;
  if (!set.v || roots.out_of_memory) {
    /* without a search root a found file would read as missing: check none, say why */
    diag_out_of_memory(sink, "the resource search");
    free(set.v);
    roots_free(&roots);
    return;
  }
  /* a walk yields each file once already: the set stays empty */
  /* the walk's set of names seen is charged to the decode's bound, as it was while the decoder
   * kept the references (a refusal reads MDL-MEM-002: could not check) */
  if (m->ref_walk && m->ref_walk(m, (struct mem_bound *)sink->bound, check_walked, &x) < 0)
    diag_out_of_memory(sink, "the resource search");
  for (const struct model_ref *ref = m->refs; ref; ref = ref->next) {
    if (ref->conventional && !image_file_named(ref->ref))
      continue; /* a material name, not a file name: nothing to look for */
    if (!ref_seen(&set, ref))
      check_one(&x, ref);
  }
  free(set.v);
  roots_free(&roots);
}
