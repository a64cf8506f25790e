/* batch.c - input expansion for batch runs: directory walks with fts(3), globs, plain files. */
#define _GNU_SOURCE
#include "batch.h"
#include "format.h"
#include "grow.h"
#include "path_key.h"
#include "text_safe.h"
#include "oom.h"

#include <fts.h>
#include <glob.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#define MAX_DIR_DEPTH 64

/* What a walk has met, by device and inode, and the path it was first met as: a file or
 * directory reached again (a link to a sibling, a hard link) is skipped and named, so each
 * file is validated once whatever the links. */
struct seen_entry {
  dev_t dev;
  ino_t ino;
  char *path; /* NULL: free slot */
};

struct seen_set {
  struct seen_entry *v;
  size_t n, cap; /* cap: 0 or a power of two */
};


static size_t seen_hash(dev_t dev, ino_t ino)
{
  uint64_t h = (uint64_t)ino * 0x9e3779b97f4a7c15u ^ (uint64_t)dev * 0xc2b2ae3d27d4eb4fu;
  return (size_t)(h ^ h >> 29);
}

static void seen_grow(struct seen_set *s)
{
  struct seen_set old = *s;
  size_t cap = old.cap ? old.cap * 2 : 256;
  s->v = calloc(cap, sizeof *s->v);
  if (!s->v)
    oom_exit();
  s->cap = cap;
  s->n = 0;
  for (size_t i = 0; i < old.cap; i++) {
    if (!old.v[i].path)
      continue;
    size_t k = seen_hash(old.v[i].dev, old.v[i].ino) & (cap - 1);
    while (s->v[k].path)
      k = (k + 1) & (cap - 1);
    s->v[k] = old.v[i];
    s->n++;
  }
  free(old.v);
}

/* The path first met with this identity (fts gives it as fts_dev/fts_ino: under FTS_NOSTAT an
 * entry has no fts_statp), or NULL after recording path for it. */
static const char *seen_check(struct file_list *l, dev_t dev, ino_t ino, const char *path)
{
  struct seen_set *s = l->seen;
  size_t k;
  if (!s && !(s = l->seen = calloc(1, sizeof *s)))
    oom_exit();
  if ((s->n + 1) * 2 > s->cap)
    seen_grow(s);
  k = seen_hash(dev, ino) & (s->cap - 1);
  for (; s->v[k].path; k = (k + 1) & (s->cap - 1))
    if (s->v[k].dev == dev && s->v[k].ino == ino)
      return s->v[k].path;
  s->v[k].dev = dev;
  s->v[k].ino = ino;
  s->v[k].path = strdup(path);
  if (!s->v[k].path)
    oom_exit();
  s->n++;
  return NULL;
}

static void seen_free(struct seen_set *s)
{
  for (size_t i = 0; s && i < s->cap; i++)
    free(s->v[i].path);
  if (s)
    free(s->v);
  free(s);
}

static void push_member(struct file_list *l, const char *path, const char *key, size_t arch_len,
                        uint64_t index)
{
  size_t cap = l->cap;
  if (arch_len && !l->members) { /* the first archive member: every earlier path is a file */
    l->capmembers = l->count + 64;
    if (!(l->members = calloc(l->capmembers, sizeof *l->members)))
      oom_exit();
  }
  if (l->members) {
    grow_one_or_abort(&l->members, &l->capmembers, l->count, sizeof *l->members, 64);
    l->members[l->count].arch_len = arch_len;
    l->members[l->count].index = index;
  }
  grow_one_or_abort(&l->paths, &l->cap, l->count, sizeof *l->paths, 64);
  grow_one_or_abort(&l->keys, &cap, l->count, sizeof *l->keys, 64);
  /* a shard key only where --shard ranks the list; a caller told of each file (added) never
   * does, and the walk, the serial part of a batch, should not copy it 40,000 times */
  l->paths[l->count] = strdup(path);
  l->keys[l->count] = l->added ? NULL : strdup(key);
  if (!l->paths[l->count] || (!l->added && !l->keys[l->count]))
    oom_exit();
  l->count++;
  if (l->added)
    l->added(l, l->added_ctx);
}

static void push(struct file_list *l, const char *path, const char *key)
{
  push_member(l, path, key, 0, 0);
}

struct archive_walk {
  struct file_list *l;
  const char *path, *key;
};

static void archive_member_push(void *ctx, const char *name, uint64_t index)
{
  struct archive_walk *w = ctx;
  size_t n = strlen(w->path), k = strlen(w->key), m = strlen(name);
  char *path = malloc(n + m + 2), *key = malloc(k + m + 2);
  if (!path || !key)
    oom_exit();
  sprintf(path, "%s:%s", w->path, name);
  sprintf(key, "%s:%s", w->key, name);
  push_member(w->l, path, key, n, index);
  free(path);
  free(key);
}

/* An archive's members with a model extension join the selection; one that cannot be listed
 * joins as itself, so that its validation says why. */
static void archive_select(struct file_list *l, const char *path, const char *key)
{
  struct archive_walk w = {l, path, key};
  char why[256];
  if (archive_list(path, archive_member_push, &w, &l->skipped, why, sizeof why) < 0)
    push_member(l, path, key, strlen(path), ARCHIVE_WHOLE);
}

/* A walked entry's path below the directory argument: "a/b.iqm" whether the walk began at
 * "assets", "assets/" or an absolute path, so every CI job computes the same key. */
static const char *walk_key(const char *path, const char *root)
{
  size_t n = strlen(root);
  if (strncmp(path, root, n))
    return path;
  while (path[n] == '/')
    n++;
  return path[n] ? path + n : path;
}

void file_list_drop_selection(struct file_list *l)
{
  for (size_t i = 0; i < l->count; i++) {
    free(l->paths[i]);
    free(l->keys[i]);
  }
  free(l->paths);
  free(l->keys);
  free(l->members);
  seen_free(l->seen);
  l->paths = l->keys = NULL;
  l->members = NULL;
  l->seen = NULL;
  l->count = l->cap = l->capmembers = 0;
}

void file_list_free(struct file_list *l)
{
  file_list_drop_selection(l);
  for (size_t i = 0; i < l->nelsewhere; i++)
    free(l->elsewhere[i]);
  for (size_t i = 0; i < l->noutside; i++)
    free(l->outside[i]);
  free(l->outside);
  free(l->elsewhere);
  memset(l, 0, sizeof *l);
}

static int by_name(const FTSENT **a, const FTSENT **b)
{
  return strcmp((*a)->fts_name, (*b)->fts_name);
}

static void skip_note(struct file_list *l, const char *path, const char *why, const char *other)
{
  text_printf(stderr, "mdlcheck: note: skipped %s: %s%s\n", path, why, other ? other : "");
  l->links_skipped++;
}

/* Whether the entry is a symbolic link whose real path leaves top (the walked argument's real
 * path): a committed `assets/root -> /` would otherwise walk, validate and quote the whole
 * machine. The link is then noted and kept for the report. */
static int leaves(struct file_list *l, const FTSENT *e, int is_link, const char *top,
                  const char *dir)
{
  char *real;
  size_t n;
  if (!top || e->fts_level == 0 || !is_link)
    return 0;
  n = strlen(top);
  if (!(real = path_resolve(e->fts_path)))
    return 0; /* it vanished: fts reports what it finds */
  if (n == 1 || (!strncmp(real, top, n) && (real[n] == '/' || !real[n]))) {
    free(real);
    return 0;
  }
  text_printf(stderr, "mdlcheck: note: skipped %s: a symbolic link that leads out of %s (to %s); "
              "--follow-links follows it\n", e->fts_path, dir, real);
  free(real);
  grow_one_or_abort(&l->outside, &l->capoutside, l->noutside, sizeof *l->outside, 8);
  if (!(l->outside[l->noutside] = strdup(e->fts_path)))
    oom_exit();
  l->noutside++;
  return 1;
}

/* Links are followed as stat(2) would, while they stay inside the argument (see leaves); a
 * directory that is its own ancestor (fts reports FTS_DC) or was already walked, and a file
 * already selected, are skipped. The walk is the one serial part of a batch, so each entry costs
 * one lstat (FTS_PHYSICAL) and only a link is stat'ed again, through FTS_FOLLOW: fts then hands
 * the same entry back as what the link leads to (FTS_LOGICAL would cost a stat per entry and
 * leaves an lstat more to tell the links). */
static int walk(struct file_list *l, const char *dir)
{
  int fresh = 1; /* 0: the root itself was walked before (`mdlcheck . sub`) */
  char *roots[2] = {(char *)dir, NULL};
  FTS *fts = fts_open(roots, FTS_PHYSICAL | FTS_COMFOLLOW | FTS_NOCHDIR | FTS_NOSTAT, by_name);
  FTSENT *e, *followed = NULL; /* the link fts hands back next, followed */
  const char *first;
  char *top = NULL; /* the argument's real path; NULL: links are followed anywhere */
  if (!fts) {
    push(l, dir, dir); /* reported as unreadable by the validator */
    return 1;
  }
  if (!l->follow_links)
    top = path_resolve(dir);
  while ((e = fts_read(fts)) != NULL) {
    int is_link = e == followed;
    followed = NULL;
    int info = e->fts_info;
    dev_t dev = e->fts_dev; /* fts gives a directory's identity alone under FTS_NOSTAT */
    ino_t ino = e->fts_ino;
    if (e->fts_level > 0 && e->fts_name[0] == '.') {
      if (e->fts_info == FTS_D)
        fts_set(fts, e, FTS_SKIP);
      continue; /* hidden entries are not part of the selection */
    }
    if (info == FTS_NSOK || info == FTS_F) {
      /* FTS_NOSTAT: fts reads a directory without a stat per entry, so the first file is
       * published (and validated) while the walk goes on, not after all its siblings were
       * stat'ed; each entry is lstat'ed here as it comes. A link or a directory goes back to
       * fts (FTS_AGAIN) to be followed or descended; a file reached through a link (FTS_F) is
       * stat'ed for its identity. */
      struct stat st;
      if ((info == FTS_NSOK ? lstat : stat)(e->fts_accpath, &st) != 0) {
        info = FTS_NS;
      } else if (info == FTS_NSOK && (S_ISLNK(st.st_mode) || S_ISDIR(st.st_mode))) {
        fts_set(fts, e, FTS_AGAIN); /* handed back as FTS_SL or FTS_D, never FTS_NSOK */
        continue;
      } else {
        info = S_ISREG(st.st_mode) ? FTS_F : FTS_DEFAULT;
        dev = st.st_dev;
        ino = st.st_ino;
      }
    }
    switch (info) {
    case FTS_SL:
      if (!is_link) { /* a link seen for the first time: what it leads to comes next */
        fts_set(fts, e, FTS_FOLLOW);
        followed = e;
        break;
      }
      /* fts answers FTS_SL again for a link it could not stat: dangling, as FTS_SLNONE */
      /* fall through */
    case FTS_SLNONE:
      if (format_by_extension(e->fts_path))
        push(l, e->fts_path, walk_key(e->fts_path, dir));
      else
        l->skipped++;
      break;
    case FTS_D:
      if (leaves(l, e, is_link, top, dir)) {
        fts_set(fts, e, FTS_SKIP);
      } else if (e->fts_level > MAX_DIR_DEPTH) {
        skip_note(l, e->fts_path, "deeper than 64 directory levels", NULL);
        fts_set(fts, e, FTS_SKIP);
      } else if ((first = seen_check(l, dev, ino, e->fts_path)) != NULL) {
        skip_note(l, e->fts_path, "the same directory as ", first);
        fts_set(fts, e, FTS_SKIP);
        fresh &= e->fts_level > 0;
      }
      break;
    case FTS_DC: {
      /* entries share one path buffer: the ancestor's path is its first fts_pathlen bytes */
      char *up = e->fts_cycle ? strndup(e->fts_path, e->fts_cycle->fts_pathlen) : NULL;
      skip_note(l, e->fts_path, "a link back to its ancestor ", up ? up : dir);
      free(up);
      break;
    }
    case FTS_DP:
      break;
    case FTS_DNR:
    case FTS_ERR:
      push(l, e->fts_path, walk_key(e->fts_path, dir)); /* reported as unreadable */
      break;
    case FTS_F:
      if (archive_name(e->fts_path)) {
        if ((first = seen_check(l, dev, ino, e->fts_path)) != NULL)
          skip_note(l, e->fts_path, "the same file as ", first);
        else
          archive_select(l, e->fts_path, walk_key(e->fts_path, dir));
      } else if (!format_by_extension(e->fts_path))
        l->skipped++;
      else if (leaves(l, e, is_link, top, dir))
        ; /* listed in l->outside */
      else if ((first = seen_check(l, dev, ino, e->fts_path)) != NULL)
        skip_note(l, e->fts_path, "the same file as ", first);
      else
        push(l, e->fts_path, walk_key(e->fts_path, dir));
      break;
    default: /* a dangling link, a socket: read as a file when its name says model */
      if (format_by_extension(e->fts_path))
        push(l, e->fts_path, walk_key(e->fts_path, dir));
      else
        l->skipped++;
      break;
    }
  }
  fts_close(fts);
  free(top);
  return fresh;
}

int file_list_add(struct file_list *l, const char *arg)
{
  struct stat st;
  /* one stat answers every question below (a batch names thousands of files) */
  int is = strcmp(arg, "-") && stat(arg, &st) == 0;
  if (is && S_ISDIR(st.st_mode)) {
    return walk(l, arg);
  }
  if (strcmp(arg, "-") && !is && strpbrk(arg, "*?[")) {
    glob_t g;
    int rc = glob(arg, 0, NULL, &g), any = 0;
    if (rc == GLOB_NOMATCH)
      return -1;
    if (rc == 0)
      for (size_t i = 0; i < g.gl_pathc; i++)
        any |= file_list_add(l, g.gl_pathv[i]);
    globfree(&g);
    return rc == 0 ? any : -1;
  }
  if (is && S_ISREG(st.st_mode) && archive_name(arg)) {
    if (!seen_check(l, st.st_dev, st.st_ino, arg))
      archive_select(l, arg, arg);
    return 1;
  }
  if (is)
    (void)seen_check(l, st.st_dev, st.st_ino, arg); /* a walk that meets it again skips it */
  push(l, arg, arg);
  return 0;
}
