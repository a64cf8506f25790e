/* cache.c - validation results kept by the SHA-256 of what decides them (--cache DIR): entries
 * written atomically (a temporary file renamed into place), checked whole before use, replayed
 * as the library delivered them, and the directory kept under a size bound, oldest first. */
#define _GNU_SOURCE
#include "cache.h"

#include <dirent.h>
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <sys/vfs.h>
#include <nettle/sha2.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "format.h"
#include "grow.h"

/* The layout of an entry; a change of it is a new name, so old entries read as misses. */
#define ENTRY_MAGIC "mdlcheck-cache-2\n"

/* One file of the stat index (see cache.h): the file met again with exactly this stat has the
 * bytes whose entry body this is. */
struct srec {
  const char *path;
  uint64_t dev, ino, size;
  int64_t mt_s, mt_ns, ct_s, ct_ns;
  uint8_t key[SHA256_DIGEST_SIZE];
  const unsigned char *body;
  size_t body_len;
  int owned; /* path and body are malloc'd (else they point into the loaded index) */
};

struct cache {
  char *dir;
  unsigned long long max_bytes;
  struct sha256_ctx run; /* the program, the library and the run's settings: every key's start */
  pthread_mutex_t lock;  /* guards names and the counters */
  char **names;          /* strings a replayed result points at (stat names), freed at close */
  size_t nnames, capnames;
  size_t hits, misses, stored;
  /* the stat index: loaded by cache_ready, read-only while workers run */
  char boot_id[64];           /* this boot's id, "" when unknown: no index then */
  char index_path[4200];
  unsigned char *index_buf;   /* the loaded index file */
  struct srec *old;           /* its records */
  size_t nold;
  size_t *table, table_cap;   /* open addressing by path: index + 1 into old, 0 empty */
  struct srec *fresh;         /* records for the next index (under lock) */
  size_t nfresh, capfresh;
  int index_changed;          /* a record was added or dropped: write the index at close */
};

/* --- hashing ------------------------------------------------------------------------------ */

static void put_bytes(struct sha256_ctx *h, const void *p, size_t n)
{
  uint64_t len = n;
  sha256_update(h, sizeof len, (const uint8_t *)&len); /* length first: no two fields run together */
  sha256_update(h, n, p);
}

static int hash_file(struct sha256_ctx *h, const char *path)
{
  unsigned char buf[65536];
  ssize_t n;
  int fd = open(path, O_RDONLY | O_CLOEXEC);
  if (fd < 0)
    return -1;
  while ((n = read(fd, buf, sizeof buf)) > 0)
    sha256_update(h, (size_t)n, buf);
  close(fd);
  return n < 0 ? -1 : 0;
}

/* The program answering, and the shared library when it is one: a rebuild answers anew. */
static int hash_program(struct sha256_ctx *h)
{
  Dl_info info;
  char exe[4096];
  ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
  if (n <= 0)
    return -1;
  exe[n] = '\0';
  if (hash_file(h, exe) < 0)
    return -1;
  if (dladdr((void *)mdl_validate_buffer, &info) && info.dli_fname && info.dli_fname[0] == '/') {
    char *lib = realpath(info.dli_fname, NULL);
    int rc = 0;
    if (lib && strcmp(lib, exe))
      rc = hash_file(h, lib);
    free(lib);
    if (rc < 0)
      return -1;
  }
  return 0;
}

static void hex(const uint8_t key[SHA256_DIGEST_SIZE], char out[2 * SHA256_DIGEST_SIZE + 1])
{
  static const char digits[] = "0123456789abcdef";
  for (int i = 0; i < SHA256_DIGEST_SIZE; i++) {
    out[2 * i] = digits[key[i] >> 4];
    out[2 * i + 1] = digits[key[i] & 15];
  }
  out[2 * SHA256_DIGEST_SIZE] = '\0';
}

/* --- opening and settings --------------------------------------------------------------- */

struct cache *cache_open(const char *dir, unsigned long long max_bytes, char *why, size_t cap)
{
  struct cache *k;
  struct stat st;
  if (mkdir(dir, 0777) < 0 && errno != EEXIST) {
    snprintf(why, cap, "cannot create %s: %s", dir, strerror(errno));
    return NULL;
  }
  if (stat(dir, &st) < 0 || !S_ISDIR(st.st_mode)) {
    snprintf(why, cap, "%s is not a directory", dir);
    return NULL;
  }
  if (access(dir, W_OK | X_OK) < 0) {
    snprintf(why, cap, "cannot write to %s: %s", dir, strerror(errno));
    return NULL;
  }
  if (!(k = calloc(1, sizeof *k)) || !(k->dir = strdup(dir))) {
    free(k);
    snprintf(why, cap, "out of memory");
    return NULL;
  }
  k->max_bytes = max_bytes;
  sha256_init(&k->run);
  put_bytes(&k->run, ENTRY_MAGIC, sizeof ENTRY_MAGIC - 1);
  put_bytes(&k->run, MDL_VERSION_STRING, sizeof MDL_VERSION_STRING - 1);
  if (hash_program(&k->run) < 0) {
    snprintf(why, cap, "cannot read the program itself to key the cache: %s", strerror(errno));
    free(k->dir);
    free(k);
    return NULL;
  }
  pthread_mutex_init(&k->lock, NULL);
  {
    /* a writer opening a file under our read lease is told to wait, and we are sent SIGIO,
     * whose default ends the process: we give the lease back within the read anyway */
    struct sigaction sa;
    if (sigaction(SIGIO, NULL, &sa) == 0 && sa.sa_handler == SIG_DFL) {
      memset(&sa, 0, sizeof sa);
      sa.sa_handler = SIG_IGN;
      sigaction(SIGIO, &sa, NULL);
    }
  }
  return k;
}

void cache_setting(struct cache *k, const char *name, const void *value, size_t len)
{
  put_bytes(&k->run, name, strlen(name));
  put_bytes(&k->run, value ? value : "", value ? len : 0);
}

/* --- an entry: what the library delivered, in order ------------------------------------- */

struct out {
  unsigned char *p;
  size_t n, cap;
  int failed;
};

static void out_put(struct out *o, const void *p, size_t n)
{
  if (o->failed)
    return;
  if (o->n + n > o->cap) {
    size_t cap = o->cap ? o->cap : 1024;
    unsigned char *q;
    while (cap < o->n + n)
      cap *= 2;
    if (!(q = realloc(o->p, cap))) {
      o->failed = 1;
      return;
    }
    o->p = q;
    o->cap = cap;
  }
  memcpy(o->p + o->n, p, n);
  o->n += n;
}

static void out_u64(struct out *o, uint64_t v)
{
  out_put(o, &v, sizeof v);
}

static void out_str(struct out *o, const char *s)
{
  size_t n = s ? strlen(s) : 0;
  out_u64(o, n);
  out_put(o, s ? s : "", n);
}

struct in {
  const unsigned char *p;
  size_t n;
  int failed;
};

static uint64_t in_u64(struct in *i)
{
  uint64_t v = 0;
  if (i->failed || i->n < sizeof v) {
    i->failed = 1;
    return 0;
  }
  memcpy(&v, i->p, sizeof v);
  i->p += sizeof v;
  i->n -= sizeof v;
  return v;
}

/* A string of the entry, copied into buf (NUL-terminated), or NULL when it does not fit. */
static const char *in_str(struct in *i, char *buf, size_t cap)
{
  uint64_t n = in_u64(i);
  if (i->failed || n >= cap || n > i->n) {
    i->failed = 1;
    return NULL;
  }
  memcpy(buf, i->p, (size_t)n);
  buf[n] = '\0';
  i->p += n;
  i->n -= (size_t)n;
  return buf;
}

struct recording {
  struct out out;
  uint64_t ndiags;
  struct report_file *f;
};

/* The sink while validating for the cache: the report gets each diagnostic as it comes, and the
 * entry records it for a later run. */
static void record_diag(const mdl_diag *d, void *user)
{
  struct recording *r = user;
  report_collect(d, r->f);
  out_str(&r->out, d->rule ? d->rule->id : "");
  out_u64(&r->out, (uint64_t)d->severity);
  out_str(&r->out, d->message);
  out_u64(&r->out, (uint64_t)d->offset);
  out_u64(&r->out, d->line);
  out_u64(&r->out, d->column);
  out_str(&r->out, d->path);
  out_str(&r->out, d->actual);
  out_str(&r->out, d->expected);
  out_u64(&r->out, d->folded);
  out_u64(&r->out, d->num_folded_at);
  for (size_t j = 0; j < d->num_folded_at; j++) {
    out_u64(&r->out, (uint64_t)d->folded_at[j].offset);
    out_u64(&r->out, d->folded_at[j].line);
    out_u64(&r->out, d->folded_at[j].column);
  }
  /* what the text report shows under it: the source line or bytes (a binary row may hold NULs;
   * an empty line is a context of size 0, apart from none) */
  out_u64(&r->out, d->context != NULL);
  out_u64(&r->out, d->context ? d->context_size : 0);
  out_put(&r->out, d->context ? d->context : "", d->context ? d->context_size : 0);
  out_u64(&r->out, d->context ? d->context_mark : 0);
  out_u64(&r->out, (uint64_t)(d->context ? d->context_offset : -1));
  r->ndiags++;
}

static void record_result(struct out *o, const mdl_result *res)
{
  out_str(o, res->format);
  out_put(o, res->version, sizeof res->version);
  out_put(o, res->compression, sizeof res->compression);
  for (int s = 0; s < MDL_SEVERITY_COUNT; s++)
    out_u64(o, res->counts[s]);
  out_u64(o, (uint64_t)res->truncated);
  out_u64(o, (uint64_t)res->stats.decoded);
  out_u64(o, (uint64_t)res->stats.partial);
  out_u64(o, res->stats.joints);
  out_u64(o, res->stats.meshes);
  out_u64(o, res->stats.vertices);
  out_u64(o, res->stats.triangles);
  out_u64(o, res->stats.animations);
  out_u64(o, res->stats.frames);
  out_u64(o, res->stats.num_extra);
  for (unsigned j = 0; j < res->stats.num_extra && j < MDL_STATS_EXTRA_MAX; j++) {
    out_str(o, res->stats.extra[j].name);
    out_u64(o, res->stats.extra[j].value);
  }
}

/* A name that lives as long as the cache: a replayed result points at it, as at a static name. */
static const char *intern(struct cache *k, const char *s)
{
  const char *found = NULL;
  char *copy;
  pthread_mutex_lock(&k->lock);
  for (size_t i = 0; i < k->nnames && !found; i++)
    if (!strcmp(k->names[i], s))
      found = k->names[i];
  if (!found && (copy = strdup(s)) != NULL) {
    if (grow_one(&k->names, &k->capnames, k->nnames, sizeof *k->names, 8) == 0)
      found = k->names[k->nnames++] = copy;
    else
      free(copy);
  }
  pthread_mutex_unlock(&k->lock);
  return found;
}

/* Read an entry: its diagnostics (collected into f when f is not NULL) and its result; -1 when
 * it does not read whole. A first pass without f proves the whole entry good before a second
 * collects anything, so a bad entry is a plain miss. */
static int replay(struct cache *k, struct in *i, struct report_file *f, mdl_result *res)
{
  char id[64], msg[8192], path[4096], actual[4096], expected[4096], name[64];
  char context[MDL_CONTEXT_MAX + 1];
  uint64_t ndiags = in_u64(i);
  for (uint64_t n = 0; n < ndiags && !i->failed; n++) {
    mdl_diag d;
    mdl_position at[MDL_FOLDED_AT];
    memset(&d, 0, sizeof d);
    if (!in_str(i, id, sizeof id) || !(d.rule = mdl_rule_find(id)))
      return -1;
    d.severity = (mdl_severity)in_u64(i);
    d.message = in_str(i, msg, sizeof msg);
    d.offset = (long long)in_u64(i);
    d.line = (unsigned)in_u64(i);
    d.column = (unsigned)in_u64(i);
    d.path = in_str(i, path, sizeof path);
    d.actual = in_str(i, actual, sizeof actual);
    d.expected = in_str(i, expected, sizeof expected);
    d.folded = (unsigned long)in_u64(i);
    d.num_folded_at = (size_t)in_u64(i);
    if (i->failed || d.num_folded_at > MDL_FOLDED_AT)
      return -1;
    for (size_t j = 0; j < d.num_folded_at; j++) {
      at[j].offset = (long long)in_u64(i);
      at[j].line = (unsigned)in_u64(i);
      at[j].column = (unsigned)in_u64(i);
    }
    d.folded_at = d.num_folded_at ? at : NULL;
    if (in_u64(i)) {
      uint64_t size = in_u64(i);
      if (i->failed || size > MDL_CONTEXT_MAX || size > i->n)
        return -1;
      memcpy(context, i->p, (size_t)size);
      i->p += size;
      i->n -= (size_t)size;
      d.context = context;
      d.context_size = (size_t)size;
      d.context_mark = (size_t)in_u64(i);
      d.context_offset = (long long)in_u64(i);
      if (d.context_mark > d.context_size)
        return -1;
    } else {
      in_u64(i); /* size 0 */
      in_u64(i);
      d.context_offset = (long long)in_u64(i);
    }
    if (i->failed)
      return -1;
    if (f)
      report_collect(&d, f);
  }
  memset(res, 0, sizeof *res);
  if (!in_str(i, name, sizeof name))
    return -1;
  if (!strcmp(name, "unknown"))
    res->format = "unknown";
  else if (format_find(name))
    res->format = format_find(name)->name;
  else
    return -1;
  if (i->n < sizeof res->version + sizeof res->compression)
    return -1;
  memcpy(res->version, i->p, sizeof res->version);
  memcpy(res->compression, i->p + sizeof res->version, sizeof res->compression);
  i->p += sizeof res->version + sizeof res->compression;
  i->n -= sizeof res->version + sizeof res->compression;
  for (int s = 0; s < MDL_SEVERITY_COUNT; s++)
    res->counts[s] = (unsigned long)in_u64(i);
  res->truncated = (int)in_u64(i);
  res->stats.decoded = (int)in_u64(i);
  res->stats.partial = (int)in_u64(i);
  res->stats.joints = in_u64(i);
  res->stats.meshes = in_u64(i);
  res->stats.vertices = in_u64(i);
  res->stats.triangles = in_u64(i);
  res->stats.animations = in_u64(i);
  res->stats.frames = in_u64(i);
  res->stats.num_extra = (unsigned)in_u64(i);
  if (i->failed || res->stats.num_extra > MDL_STATS_EXTRA_MAX)
    return -1;
  for (unsigned j = 0; j < res->stats.num_extra; j++) {
    if (!in_str(i, name, sizeof name) || !(res->stats.extra[j].name = intern(k, name)))
      return -1;
    res->stats.extra[j].value = in_u64(i);
  }
  return i->failed || i->n != 0 ? -1 : 0;
}

/* --- files of the cache -------------------------------------------------------------------- */

static void entry_path(const struct cache *k, const char *hexkey, char *buf, size_t cap, int dir_only)
{
  if (dir_only)
    snprintf(buf, cap, "%s/%.2s", k->dir, hexkey);
  else
    snprintf(buf, cap, "%s/%.2s/%s", k->dir, hexkey, hexkey + 2);
}

/* The entry's bytes (malloc'd), after its check: its key and the SHA-256 of its body. */
static unsigned char *entry_read(const char *path, const uint8_t key[SHA256_DIGEST_SIZE], size_t *len,
                                 time_t *used)
{
  struct stat st;
  unsigned char *p;
  size_t head = sizeof ENTRY_MAGIC - 1 + 2 * SHA256_DIGEST_SIZE;
  uint8_t sum[SHA256_DIGEST_SIZE];
  struct sha256_ctx h;
  ssize_t n;
  int fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK);
  if (fd < 0)
    return NULL;
  if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode) || (size_t)st.st_size < head ||
      st.st_size > (1 << 26) || !(p = malloc((size_t)st.st_size))) {
    close(fd);
    return NULL;
  }
  n = read(fd, p, (size_t)st.st_size);
  close(fd);
  *used = st.st_mtime;
  if (n != st.st_size || memcmp(p, ENTRY_MAGIC, sizeof ENTRY_MAGIC - 1) ||
      memcmp(p + sizeof ENTRY_MAGIC - 1, key, SHA256_DIGEST_SIZE)) {
    free(p);
    return NULL;
  }
  sha256_init(&h);
  sha256_update(&h, (size_t)n - head, p + head);
  sha256_digest(&h, SHA256_DIGEST_SIZE, sum);
  if (memcmp(sum, p + sizeof ENTRY_MAGIC - 1 + SHA256_DIGEST_SIZE, SHA256_DIGEST_SIZE)) {
    free(p);
    return NULL;
  }
  *len = (size_t)n - head;
  memmove(p, p + head, *len);
  return p;
}

/* Write the entry beside its place and rename it there: a reader sees the whole entry or none,
 * whatever other runs write at the same time. */
static int entry_write(struct cache *k, const char *hexkey, const uint8_t key[SHA256_DIGEST_SIZE],
                       const struct out *body)
{
  char dir[4096], path[4200], tmp[4200];
  uint8_t sum[SHA256_DIGEST_SIZE];
  struct sha256_ctx h;
  int fd, ok;
  entry_path(k, hexkey, dir, sizeof dir, 1);
  entry_path(k, hexkey, path, sizeof path, 0);
  if (mkdir(dir, 0777) < 0 && errno != EEXIST)
    return -1;
  snprintf(tmp, sizeof tmp, "%s/.tmp-XXXXXX", dir);
  if ((fd = mkostemp(tmp, O_CLOEXEC)) < 0)
    return -1;
  sha256_init(&h);
  sha256_update(&h, body->n, body->p);
  sha256_digest(&h, SHA256_DIGEST_SIZE, sum);
  ok = write(fd, ENTRY_MAGIC, sizeof ENTRY_MAGIC - 1) == (ssize_t)(sizeof ENTRY_MAGIC - 1) &&
       write(fd, key, SHA256_DIGEST_SIZE) == SHA256_DIGEST_SIZE &&
       write(fd, sum, SHA256_DIGEST_SIZE) == SHA256_DIGEST_SIZE &&
       write(fd, body->p, body->n) == (ssize_t)body->n;
  ok &= fchmod(fd, 0666 & ~0022) == 0;
  ok &= close(fd) == 0;
  if (!ok || rename(tmp, path) < 0) {
    unlink(tmp);
    return -1;
  }
  return 0;
}

/* --- one file ------------------------------------------------------------------------------ */

/* cache_validate, and when keep is not NULL the key and a copy of the entry's body go there
 * (body NULL when there is none to keep). */
static mdl_status validate_keep(struct cache *k, const char *path, const unsigned char *data, size_t size,
                                const mdl_options *o, struct report_file *f, struct srec *keep)
{
  struct sha256_ctx h = k->run;
  uint8_t key[SHA256_DIGEST_SIZE];
  char hexkey[2 * SHA256_DIGEST_SIZE + 1], where[4200];
  const char *base = strrchr(path, '/');
  unsigned char *entry;
  size_t len;
  time_t used;
  struct recording rec;
  mdl_options mine = *o;
  mdl_result res;
  mdl_status st;

  put_bytes(&h, base ? base + 1 : path, strlen(base ? base + 1 : path));
  put_bytes(&h, data, size);
  sha256_digest(&h, SHA256_DIGEST_SIZE, key);
  hex(key, hexkey);
  entry_path(k, hexkey, where, sizeof where, 0);
  if (keep) {
    memcpy(keep->key, key, sizeof key);
    keep->body = NULL;
  }
  if ((entry = entry_read(where, key, &len, &used)) != NULL) {
    struct in dry = {entry, len, 0}, i = {entry, len, 0};
    int rc = replay(k, &dry, NULL, &res) == 0 ? replay(k, &i, f, &res) : -1;
    if (rc == 0) {
      report_set_result(f, &res);
      /* used now: the size bound removes it last (an hour's precision spares a call per hit) */
      if (time(NULL) - used > 3600)
        utimensat(AT_FDCWD, where, NULL, 0);
      pthread_mutex_lock(&k->lock);
      k->hits++;
      pthread_mutex_unlock(&k->lock);
      if (keep) {
        keep->body = entry;
        keep->body_len = len;
      } else
        free(entry);
      return MDL_OK;
    }
    free(entry);
  }

  memset(&rec, 0, sizeof rec);
  rec.f = f;
  out_u64(&rec.out, 0); /* the count of diagnostics, set below */
  mine.on_diag = record_diag;
  mine.user = &rec;
  mdl_result_init(&res);
  st = mdl_validate_buffer(data, size, path, &mine, &res);
  if (st == MDL_EIO && res.counts[MDL_FATAL]) {
    /* not checked (an inflated text over --max-input-size, a decode past --max-memory): the
     * fatal that says so is the file's answer, exit 3 as without the cache; nothing is kept,
     * since another limit may check it */
    report_set_unchecked(f, &res);
    st = MDL_OK;
  } else if (st == MDL_OK) {
    report_set_result(f, &res);
    record_result(&rec.out, &res);
    if (!rec.out.failed) {
      memcpy(rec.out.p, &rec.ndiags, sizeof rec.ndiags);
      if (entry_write(k, hexkey, key, &rec.out) == 0) {
        pthread_mutex_lock(&k->lock);
        k->stored++;
        pthread_mutex_unlock(&k->lock);
      }
      if (keep) {
        keep->body = rec.out.p;
        keep->body_len = rec.out.n;
        rec.out.p = NULL;
      }
    }
  }
  pthread_mutex_lock(&k->lock);
  k->misses++;
  pthread_mutex_unlock(&k->lock);
  free(rec.out.p);
  return st;
}

mdl_status cache_validate(struct cache *k, const char *path, const unsigned char *data, size_t size,
                          const mdl_options *o, struct report_file *f)
{
  return validate_keep(k, path, data, size, o, f, NULL);
}

/* --- the stat index ------------------------------------------------------------------------ */

#define INDEX_MAGIC "mdlcheck-index-1\n"
#define INDEX_MAX_RECORDS (1u << 20)
/* A file changed less than this before it was read is not indexed: a later change within the
 * same timestamp tick (coarse clocks tick every few milliseconds; some file systems keep
 * seconds) would leave its ctime as it was. */
#define INDEX_MARGIN_NS 2000000000LL

static size_t path_hash(const char *p)
{
  size_t h = 1469598103934665603ull;
  for (; *p; p++)
    h = (h ^ (unsigned char)*p) * 1099511628211ull;
  return h;
}

static const struct srec *index_find(const struct cache *k, const char *path)
{
  if (!k->table_cap)
    return NULL;
  for (size_t i = path_hash(path) & (k->table_cap - 1); k->table[i]; i = (i + 1) & (k->table_cap - 1))
    if (!strcmp(k->old[k->table[i] - 1].path, path))
      return &k->old[k->table[i] - 1];
  return NULL;
}

/* Parse the index file held in k->index_buf (n bytes); -1 when it is not whole or not ours. */
static int index_parse(struct cache *k, size_t n, const uint8_t runkey[SHA256_DIGEST_SIZE])
{
  struct in i = {k->index_buf, n, 0};
  size_t m = sizeof INDEX_MAGIC - 1, blen = strlen(k->boot_id);
  uint8_t sum[SHA256_DIGEST_SIZE];
  struct sha256_ctx h;
  uint64_t count;
  if (n < m + blen + 2 * SHA256_DIGEST_SIZE + 8 || memcmp(k->index_buf, INDEX_MAGIC, m) ||
      memcmp(k->index_buf + m, k->boot_id, blen) ||
      memcmp(k->index_buf + m + blen, runkey, SHA256_DIGEST_SIZE))
    return -1;
  sha256_init(&h);
  sha256_update(&h, n - SHA256_DIGEST_SIZE, k->index_buf);
  sha256_digest(&h, SHA256_DIGEST_SIZE, sum);
  if (memcmp(sum, k->index_buf + n - SHA256_DIGEST_SIZE, SHA256_DIGEST_SIZE))
    return -1;
  i.p += m + blen + SHA256_DIGEST_SIZE;
  i.n -= m + blen + 2 * SHA256_DIGEST_SIZE;
  count = in_u64(&i);
  if (i.failed || count > INDEX_MAX_RECORDS || !(k->old = calloc(count ? count : 1, sizeof *k->old)))
    return -1;
  for (uint64_t r = 0; r < count; r++) {
    struct srec *x = &k->old[r];
    uint64_t len = in_u64(&i);
    /* the path is stored with its NUL, and holds no other */
    if (i.failed || len < 2 || len >= i.n || i.p[len - 1] != 0 || memchr(i.p, 0, len - 1))
      return -1;
    x->path = (const char *)i.p;
    i.p += len;
    i.n -= len;
    x->dev = in_u64(&i);
    x->ino = in_u64(&i);
    x->size = in_u64(&i);
    x->mt_s = (int64_t)in_u64(&i);
    x->mt_ns = (int64_t)in_u64(&i);
    x->ct_s = (int64_t)in_u64(&i);
    x->ct_ns = (int64_t)in_u64(&i);
    if (i.failed || i.n < SHA256_DIGEST_SIZE)
      return -1;
    memcpy(x->key, i.p, SHA256_DIGEST_SIZE);
    i.p += SHA256_DIGEST_SIZE;
    i.n -= SHA256_DIGEST_SIZE;
    x->body_len = (size_t)in_u64(&i);
    if (i.failed || x->body_len > i.n)
      return -1;
    x->body = i.p;
    i.p += x->body_len;
    i.n -= x->body_len;
  }
  if (i.n != 0)
    return -1;
  k->nold = (size_t)count;
  k->table_cap = 16;
  while (k->table_cap < 2 * k->nold)
    k->table_cap *= 2;
  if (!(k->table = calloc(k->table_cap, sizeof *k->table)))
    return -1;
  for (size_t r = 0; r < k->nold; r++) {
    size_t j = path_hash(k->old[r].path) & (k->table_cap - 1);
    while (k->table[j])
      j = (j + 1) & (k->table_cap - 1);
    k->table[j] = r + 1;
  }
  return 0;
}

void cache_ready(struct cache *k)
{
  struct sha256_ctx h = k->run;
  uint8_t runkey[SHA256_DIGEST_SIZE];
  char hexrun[2 * SHA256_DIGEST_SIZE + 1];
  struct stat st;
  int fd;
  FILE *b = fopen("/proc/sys/kernel/random/boot_id", "r");
  k->boot_id[0] = 0;
  if (b) {
    if (!fgets(k->boot_id, sizeof k->boot_id, b) || strlen(k->boot_id) < 16)
      k->boot_id[0] = 0;
    fclose(b);
  }
  if (!k->boot_id[0])
    return; /* no boot id: an index could outlive a reboot (and a clock set back); none */
  sha256_digest(&h, SHA256_DIGEST_SIZE, runkey);
  hex(runkey, hexrun);
  snprintf(k->index_path, sizeof k->index_path, "%s/index/%s", k->dir, hexrun);
  fd = open(k->index_path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK);
  if (fd < 0)
    return;
  if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && st.st_size > 0 && st.st_size < (1LL << 31) &&
      (k->index_buf = malloc((size_t)st.st_size)) != NULL) {
    size_t have = 0;
    ssize_t n;
    while (have < (size_t)st.st_size && (n = read(fd, k->index_buf + have, (size_t)st.st_size - have)) > 0)
      have += (size_t)n;
    if (have != (size_t)st.st_size || index_parse(k, have, runkey) < 0) {
      free(k->old);
      free(k->table);
      k->old = NULL;
      k->table = NULL;
      k->nold = k->table_cap = 0;
      k->index_changed = 1; /* rewrite it whole */
    }
  }
  close(fd);
}

static void fresh_add(struct cache *k, const struct srec *r)
{
  pthread_mutex_lock(&k->lock);
  if (grow_one(&k->fresh, &k->capfresh, k->nfresh, sizeof *k->fresh, 256) == 0)
    k->fresh[k->nfresh++] = *r;
  else if (r->owned) {
    free((char *)r->path);
    free((unsigned char *)r->body);
  }
  pthread_mutex_unlock(&k->lock);
}

static void srec_stat(struct srec *r, const struct stat *st)
{
  r->dev = (uint64_t)st->st_dev;
  r->ino = (uint64_t)st->st_ino;
  r->size = (uint64_t)st->st_size;
  r->mt_s = (int64_t)st->st_mtim.tv_sec;
  r->mt_ns = (int64_t)st->st_mtim.tv_nsec;
  r->ct_s = (int64_t)st->st_ctim.tv_sec;
  r->ct_ns = (int64_t)st->st_ctim.tv_nsec;
}

static int srec_same(const struct srec *a, const struct srec *b)
{
  return a->dev == b->dev && a->ino == b->ino && a->size == b->size && a->mt_s == b->mt_s &&
         a->mt_ns == b->mt_ns && a->ct_s == b->ct_s && a->ct_ns == b->ct_ns;
}

int cache_stat_hit(struct cache *k, const char *path, struct report_file *f)
{
  const struct srec *x = k->nold ? index_find(k, path) : NULL;
  struct srec now;
  struct stat st;
  mdl_result res;
  if (!x || stat(path, &st) != 0 || !S_ISREG(st.st_mode))
    return 0;
  srec_stat(&now, &st);
  if (!srec_same(&now, x)) {
    pthread_mutex_lock(&k->lock);
    k->index_changed = 1;
    pthread_mutex_unlock(&k->lock);
    return 0;
  }
  {
    struct in dry = {x->body, x->body_len, 0}, i = {x->body, x->body_len, 0};
    if (replay(k, &dry, NULL, &res) != 0 || replay(k, &i, f, &res) != 0)
      return 0;
  }
  report_set_result(f, &res);
  pthread_mutex_lock(&k->lock);
  k->hits++;
  pthread_mutex_unlock(&k->lock);
  fresh_add(k, x);
  return 1;
}

/* Whether the file system stamps ctime on every change of content, on this machine: local file
 * systems whose writable mappings fault on their first write to each page (page_mkwrite), where
 * the time is stamped; not a network or FUSE one, where another machine or a user process may
 * change bytes and report any time. */
static int fs_trusted(int fd)
{
  struct statfs sf;
  if (fstatfs(fd, &sf) != 0)
    return 0;
  switch ((unsigned long)sf.f_type) {
  case 0xEF53:     /* ext2, ext3, ext4 */
  case 0x58465342: /* xfs */
  case 0x9123683E: /* btrfs */
    return 1;
  /* not tmpfs: it has no write notification, so a writable mapping that read a page first
   * writes it without a fault, and ctime stays as it was (tested) */
  default:
    return 0;
  }
}

mdl_status cache_validate_path(struct cache *k, const char *path, unsigned long long limit,
                               const mdl_options *o, struct report_file *f, int *done)
{
  struct stat a, b;
  struct timespec t0;
  struct srec keep;
  unsigned char *data = NULL;
  size_t have = 0;
  int leased = 0, trusted;
  mdl_status st;
  int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
  *done = 0;
  if (fd < 0)
    return MDL_OK;
  /* A read lease is granted only while no one has the file open for writing (a writable shared
   * mapping counts), and any such open waits for it: held while the bytes are read, it proves
   * they are the bytes of the stat taken under it. */
  if (k->boot_id[0] && fs_trusted(fd))
    leased = fcntl(fd, F_SETLEASE, F_RDLCK) == 0;
  clock_gettime(CLOCK_REALTIME, &t0);
  if (fstat(fd, &a) != 0 || !S_ISREG(a.st_mode) || (unsigned long long)a.st_size > limit ||
      !(data = malloc((size_t)a.st_size + 1))) {
    if (leased)
      fcntl(fd, F_SETLEASE, F_UNLCK);
    close(fd);
    free(data);
    return MDL_OK; /* the caller reads it the usual way and says what is wrong */
  }
  for (;;) { /* read into memory, never mapped: the key's bytes are the validated bytes */
    ssize_t n = read(fd, data + have, (size_t)a.st_size + 1 - have);
    if (n < 0 && errno == EINTR)
      continue;
    if (n <= 0 || (have += (size_t)n) > (size_t)a.st_size)
      break;
  }
  trusted = leased && fcntl(fd, F_GETLEASE) == F_RDLCK && fstat(fd, &b) == 0 &&
            have == (size_t)a.st_size && b.st_ctim.tv_sec == a.st_ctim.tv_sec &&
            b.st_ctim.tv_nsec == a.st_ctim.tv_nsec && b.st_size == a.st_size &&
            ((long long)t0.tv_sec - a.st_ctim.tv_sec) * 1000000000LL + (t0.tv_nsec - a.st_ctim.tv_nsec) >
              INDEX_MARGIN_NS;
  if (leased)
    fcntl(fd, F_SETLEASE, F_UNLCK);
  close(fd);
  if (have != (size_t)a.st_size) { /* it changed while read: the usual reading decides */
    free(data);
    return MDL_OK;
  }
  *done = 1;
  st = validate_keep(k, path, data, have, o, f, trusted ? &keep : NULL);
  free(data);
  if (trusted && keep.body) {
    srec_stat(&keep, &a);
    keep.owned = 1;
    if ((keep.path = strdup(path)) != NULL) {
      fresh_add(k, &keep);
      pthread_mutex_lock(&k->lock);
      k->index_changed = 1;
      pthread_mutex_unlock(&k->lock);
    } else
      free((unsigned char *)keep.body);
  } else if (trusted)
    free((unsigned char *)keep.body);
  return st;
}

static int by_path(const void *a, const void *b)
{
  return strcmp(((const struct srec *)a)->path, ((const struct srec *)b)->path);
}

/* The next index: this run's records, then the old ones this run did not meet (a run over a
 * few files keeps the others'), written beside its place and renamed there. */
static void index_write(struct cache *k)
{
  struct out o = {0};
  char dir[4200], tmp[4300];
  uint8_t sum[SHA256_DIGEST_SIZE];
  struct sha256_ctx h;
  size_t n = 0, keep_old = 0;
  int fd, ok;
  struct sha256_ctx rh = k->run;
  uint8_t runkey[SHA256_DIGEST_SIZE];
  if (!k->index_path[0] || !k->index_changed)
    return;
  sha256_digest(&rh, SHA256_DIGEST_SIZE, runkey);
  qsort(k->fresh, k->nfresh, sizeof *k->fresh, by_path);
  for (size_t r = 0; r < k->nold; r++) {
    struct srec key = k->old[r];
    if (!bsearch(&key, k->fresh, k->nfresh, sizeof *k->fresh, by_path))
      keep_old++;
  }
  out_put(&o, INDEX_MAGIC, sizeof INDEX_MAGIC - 1);
  out_put(&o, k->boot_id, strlen(k->boot_id));
  out_put(&o, runkey, sizeof runkey);
  out_u64(&o, 0); /* the count, set below */
  for (int pass = 0; pass < 2; pass++)
    for (size_t r = 0; r < (pass ? k->nold : k->nfresh) && n < INDEX_MAX_RECORDS; r++) {
      const struct srec *x = pass ? &k->old[r] : &k->fresh[r];
      if (pass && bsearch(x, k->fresh, k->nfresh, sizeof *k->fresh, by_path))
        continue;
      if (r && !pass && !strcmp(x->path, k->fresh[r - 1].path))
        continue; /* the same path twice in one run */
      out_u64(&o, strlen(x->path) + 1);
      out_put(&o, x->path, strlen(x->path) + 1);
      out_u64(&o, x->dev);
      out_u64(&o, x->ino);
      out_u64(&o, x->size);
      out_u64(&o, (uint64_t)x->mt_s);
      out_u64(&o, (uint64_t)x->mt_ns);
      out_u64(&o, (uint64_t)x->ct_s);
      out_u64(&o, (uint64_t)x->ct_ns);
      out_put(&o, x->key, sizeof x->key);
      out_u64(&o, x->body_len);
      out_put(&o, x->body, x->body_len);
      n++;
    }
  (void)keep_old;
  if (o.failed) {
    free(o.p);
    return;
  }
  {
    uint64_t count = n;
    memcpy(o.p + sizeof INDEX_MAGIC - 1 + strlen(k->boot_id) + sizeof runkey, &count, sizeof count);
  }
  sha256_init(&h);
  sha256_update(&h, o.n, o.p);
  sha256_digest(&h, SHA256_DIGEST_SIZE, sum);
  out_put(&o, sum, sizeof sum);
  snprintf(dir, sizeof dir, "%s/index", k->dir);
  snprintf(tmp, sizeof tmp, "%s/.tmp-XXXXXX", dir);
  if (o.failed || (mkdir(dir, 0777) < 0 && errno != EEXIST) || (fd = mkostemp(tmp, O_CLOEXEC)) < 0) {
    free(o.p);
    return;
  }
  ok = write(fd, o.p, o.n) == (ssize_t)o.n;
  ok &= fchmod(fd, 0666 & ~0022) == 0;
  ok &= close(fd) == 0;
  if (!ok || rename(tmp, k->index_path) < 0)
    unlink(tmp);
  free(o.p);
}

/* --- the size bound ------------------------------------------------------------------------ */

struct aged {
  char *path;
  long long when;
  unsigned long long size;
};

static int by_age(const void *a, const void *b)
{
  const struct aged *x = a, *y = b;
  return x->when < y->when ? -1 : x->when > y->when;
}

/* Remove the oldest entries until the cache holds at most three quarters of its bound (so a run
 * that adds a few entries does not trim again at once). */
static int trim(struct cache *k)
{
  struct aged *v = NULL;
  size_t n = 0, cap = 0;
  unsigned long long total = 0;
  int rc = 0;
  DIR *top = opendir(k->dir);
  struct dirent *e;
  if (!top)
    return -1;
  while ((e = readdir(top)) != NULL) {
    char sub[4200];
    DIR *d;
    struct dirent *f;
    if ((strlen(e->d_name) != 2 && strcmp(e->d_name, "index")) || e->d_name[0] == '.')
      continue;
    snprintf(sub, sizeof sub, "%s/%s", k->dir, e->d_name);
    if (!(d = opendir(sub)))
      continue;
    while ((f = readdir(d)) != NULL) {
      struct stat st;
      char p[8400];
      if (f->d_name[0] == '.')
        continue;
      snprintf(p, sizeof p, "%s/%s", sub, f->d_name);
      if (lstat(p, &st) < 0 || !S_ISREG(st.st_mode))
        continue;
      if (grow_one(&v, &cap, n, sizeof *v, 256) < 0 || !(v[n].path = strdup(p))) {
        rc = -1;
        break;
      }
      v[n].when = (long long)st.st_mtim.tv_sec * 1000000000LL + st.st_mtim.tv_nsec;
      v[n].size = (unsigned long long)st.st_blocks * 512;
      total += v[n++].size;
    }
    closedir(d);
  }
  closedir(top);
  if (rc == 0 && total > k->max_bytes) {
    qsort(v, n, sizeof *v, by_age);
    for (size_t i = 0; i < n && total > k->max_bytes / 4 * 3; i++)
      if (unlink(v[i].path) == 0) {
        total -= v[i].size;
        *strrchr(v[i].path, '/') = '\0';
        rmdir(v[i].path); /* its folder, once empty (a writer that loses the race stores nothing) */
      }
  }
  for (size_t i = 0; i < n; i++)
    free(v[i].path);
  free(v);
  return rc;
}

int cache_close(struct cache *k, int verbose)
{
  int rc = 0;
  if (!k)
    return 0;
  index_write(k);
  if (k->stored)
    rc = trim(k);
  if (verbose)
    fprintf(stderr, "mdlcheck: cache %s: %zu hit%s, %zu miss%s, %zu stored\n", k->dir, k->hits,
            k->hits == 1 ? "" : "s", k->misses, k->misses == 1 ? "" : "es", k->stored);
  for (size_t i = 0; i < k->nfresh; i++)
    if (k->fresh[i].owned) {
      free((char *)k->fresh[i].path);
      free((unsigned char *)k->fresh[i].body);
    }
  free(k->fresh);
  free(k->old);
  free(k->table);
  free(k->index_buf);
  for (size_t i = 0; i < k->nnames; i++)
    free(k->names[i]);
  free(k->names);
  pthread_mutex_destroy(&k->lock);
  free(k->dir);
  free(k);
  return rc;
}
