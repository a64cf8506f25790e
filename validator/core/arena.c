/* arena.c - bump allocation in blocks; large requests get a block of their own, or on Linux a
 * share of a mapping in transparent huge pages. */
#include "arena.h"
#include "mem_bound.h"

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#if defined(__linux__)
#include <sys/mman.h>
#endif
#ifdef __EMSCRIPTEN__
#include <emscripten/heap.h>
#include <unistd.h>
#endif

#define ARENA_BLOCK 65536

#if defined(__linux__) && defined(MAP_ANONYMOUS) && defined(MADV_HUGEPAGE)
#define ARENA_HUGE 1
/* A request this large is carved from a mapping of ARENA_MAP bytes (more when it needs more),
 * aligned to 2 MiB and advised into transparent huge pages: a model of several MiB (a decoder's
 * copies of vertex arrays) then costs a page fault per 2 MiB instead of one per 4 KiB, each
 * about 2 us on a virtual machine, which was most of a 70 MB QMSH file's fixed cost. Smaller
 * models never get one, so a batch of small files keeps its small pages. Mapped memory comes
 * zeroed and is never reused within the arena: no memset. */
#define ARENA_BIG_MIN (256u * 1024u)
#define ARENA_MAP (8u * 1024u * 1024u)
#define ARENA_HUGE_PAGE (2u * 1024u * 1024u)
#endif

struct arena_block {
  struct arena_block *next;
  size_t cap, used;
  void *map;      /* the mapping holding this block (mapped blocks only), else NULL */
  size_t map_len; /* its length */
  size_t charged; /* arena_regrow's blocks: the bytes charged to the bound (the size asked) */
  max_align_t data[];
};

#ifdef ARENA_HUGE
/* n zeroed bytes from the arena's mapped pages, or NULL when no mapping can be had (the caller
 * falls back to malloc). */
static void *big_alloc(struct arena *a, size_t n)
{
  struct arena_block *b = a->big;
  size_t len, head = offsetof(struct arena_block, data);
  unsigned char *map, *at;
  if (b && b->cap - b->used >= n) {
    void *p = (unsigned char *)b->data + b->used;
    b->used += n;
    return p;
  }
  if (n > SIZE_MAX - head - 2 * (size_t)ARENA_HUGE_PAGE)
    return NULL;
  len = n + head < ARENA_MAP ? ARENA_MAP : (n + head + ARENA_HUGE_PAGE - 1) / ARENA_HUGE_PAGE * ARENA_HUGE_PAGE;
  /* one huge page more, to start on a huge-page boundary */
  map = mmap(NULL, len + ARENA_HUGE_PAGE, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (map == MAP_FAILED)
    return NULL;
  at = map + ((ARENA_HUGE_PAGE - (uintptr_t)map % ARENA_HUGE_PAGE) % ARENA_HUGE_PAGE);
  (void)madvise(at, len, MADV_HUGEPAGE); /* advice only: without it the pages are small */
  b = (struct arena_block *)(void *)at;
  b->map = map;
  b->map_len = len + ARENA_HUGE_PAGE;
  b->cap = len - head;
  b->used = n;
  b->next = a->big;
  a->big = b;
  return b->data;
}
#endif

struct arena_owned {
  struct arena_owned *next;
  void *p;
};

/* A lazy_resident table (arena.h): where it lies and the bytes of it already charged. */
struct arena_lazy {
  struct arena_lazy *next;
  unsigned char *p;
  size_t len;
  size_t charged;
};

void arena_init(struct arena *a)
{
  a->head = NULL;
  a->owned = NULL;
  a->big = NULL;
  a->used_total = 0;
  a->bound = NULL;
  a->lazy_resident = 0;
  a->lazy = NULL;
  a->failed = 0;
}

void arena_free(struct arena *a)
{
  struct arena_block *b = a->head;
  for (struct arena_owned *o = a->owned; o; o = o->next) /* the records live in the blocks */
    free(o->p);
  a->owned = NULL;
  while (b) {
    struct arena_block *next = b->next;
    free(b);
    b = next;
  }
  a->head = NULL;
#ifdef ARENA_HUGE
  for (b = a->big; b;) {
    struct arena_block *next = b->next;
    munmap(b->map, b->map_len);
    b = next;
  }
#endif
  a->big = NULL;
  a->lazy = NULL; /* the records lived in the blocks */
  a->used_total = 0;
}

static void *arena_get(struct arena *a, size_t count, size_t size, int clear)
{
  struct arena_block *b = a->head;
  size_t n;
  unsigned char *p;
  if (size && count > SIZE_MAX / size) {
    a->failed = 1;
    return NULL;
  }
  n = count * size;
  n = (n + sizeof(max_align_t) - 1) / sizeof(max_align_t) * sizeof(max_align_t);
  if (n == 0)
    n = sizeof(max_align_t);
#ifdef ARENA_HUGE
  /* a table written as far as it is used, in pages the system hands out on first touch: its
   * pages are charged as they are written (arena_bound_check) */
  if (!clear && a->lazy_resident && a->bound && n >= ARENA_BIG_MIN) {
    struct arena_lazy *l = arena_get(a, 1, sizeof *l, 1);
    if (!l)
      return NULL;
    if ((p = big_alloc(a, n)) != NULL) {
      l->p = p;
      l->len = n;
      l->next = a->lazy;
      a->lazy = l;
      a->used_total += n;
      return p;
    }
  }
#endif
  if (n > ARENA_BLOCK / 2 && mem_bound_charge(a->bound, n) < 0) { /* a table of its own */
    a->failed = 1;
    return NULL;
  }
#ifdef ARENA_HUGE
  if (n >= ARENA_BIG_MIN && (p = big_alloc(a, n)) != NULL) {
    a->used_total += n;
    return p;
  }
#endif
  if (!b || b->cap - b->used < n) {
    size_t cap = n > ARENA_BLOCK ? n : ARENA_BLOCK;
    if (cap > PTRDIFF_MAX - sizeof *b) { /* no object is larger */
      a->failed = 1;
      return NULL;
    }
    /* a block of small requests is charged as a whole when it is taken (a large request was
     * charged above) */
    if (n <= ARENA_BLOCK / 2 && mem_bound_charge(a->bound, cap) < 0) {
      a->failed = 1;
      return NULL;
    }
    b = malloc(sizeof *b + cap);
    if (!b) {
      a->failed = 1;
      return NULL;
    }
    b->cap = cap;
    b->used = 0;
    b->map = NULL;
    b->map_len = 0;
    b->charged = 0;
    if (n > ARENA_BLOCK && a->head) {
      /* keep the current small block at the head for further small requests */
      b->next = a->head->next;
      a->head->next = b;
    } else {
      b->next = a->head;
      a->head = b;
    }
  }
  p = (unsigned char *)b->data + b->used;
  b->used += n;
  a->used_total += n;
  if (clear)
    memset(p, 0, n);
  return p;
}

void *arena_calloc(struct arena *a, size_t count, size_t size)
{
  return arena_get(a, count, size, 1);
}

void *arena_alloc_lazy(struct arena *a, size_t count, size_t size)
{
  return arena_get(a, count, size, 0);
}

char *arena_strndup(struct arena *a, const char *s, size_t n)
{
  char *p = arena_calloc(a, n + 1, 1);
  if (p)
    memcpy(p, s, n);
  return p;
}

#ifdef __EMSCRIPTEN__
/* WebAssembly has no mremap: a table that moves is copied, and the copy it leaves stays in the
 * linear memory (which never shrinks), so tables grown by half again cost about three times
 * their size in memory touched. Pages never written cost nothing (the host maps them on first
 * touch), so a table past ARENA_AHEAD_MIN sets aside a share of the address space still free
 * (a sixteenth) and grows into it without moving; a table larger than that share grows as the
 * caller asks. */
#define ARENA_AHEAD_MIN (1u << 20)
static size_t regrow_ahead(size_t size)
{
  size_t top = (size_t)sbrk(0), max = emscripten_get_heap_max();
  size_t share = max > top ? (max - top) / 16 : 0;
  return size >= ARENA_AHEAD_MIN && share > size ? share : size;
}
#endif

void *arena_regrow(struct arena *a, void *p, size_t size)
{
  struct arena_block **at = &a->head, *b, *grown;
  size_t old = 0, charged = 0, asked = size;
  if (size > SIZE_MAX - sizeof *b) {
    a->failed = 1;
    return NULL;
  }
  if (p) {
    /* p's block: found from the head (such blocks are few, kept next to it) */
    while (*at && (void *)(*at)->data != p)
      at = &(*at)->next;
    if (!*at)
      return NULL;
    old = (*at)->cap;
    charged = (*at)->charged;
  }
  /* the size asked is charged, not the address space set aside ahead of it (WebAssembly):
   * pages never written cost nothing */
  if (mem_bound_grow(a->bound, charged, size) < 0) {
    a->failed = 1;
    return NULL;
  }
  if (p && size <= old) {
    if (size > charged)
      (*at)->charged = size;
    return p; /* within the room an earlier call set aside */
  }
  grown = NULL;
#ifdef ARENA_AHEAD_MIN
  {
    size_t ahead = regrow_ahead(size);
    if (ahead > size && (grown = realloc(p ? *at : NULL, sizeof *b + ahead)) != NULL)
      size = ahead;
  }
#endif
  if (!grown)
    grown = realloc(p ? *at : NULL, sizeof *b + size);
  if (!grown) {
    a->failed = 1;
    return NULL;
  }
  grown->cap = grown->used = size; /* full: never bumped into */
  grown->map = NULL;
  grown->map_len = 0;
  grown->charged = asked > charged ? asked : charged;
  if (p) {
    *at = grown;
  } else if (a->head) {
    grown->next = a->head->next;
    a->head->next = grown;
  } else {
    grown->next = NULL;
    a->head = grown;
  }
  a->used_total = a->used_total - old + size;
  return grown->data;
}

void arena_release(struct arena *a, void *p)
{
  struct arena_block **at = &a->head, *b;
  if (!p)
    return;
  while (*at && (void *)(*at)->data != p)
    at = &(*at)->next;
  if (!(b = *at) || b->map || !b->charged) /* only arena_regrow's: it charges what it is asked */
    return;
  *at = b->next;
  mem_bound_release(a->bound, b->charged);
  a->used_total -= b->cap;
  free(b);
}

int arena_bound_check(struct arena *a)
{
#ifdef ARENA_HUGE
  static const size_t page = 4096; /* mincore's unit on every Linux target we build for */
  unsigned char vec[4096];
  for (struct arena_lazy *l = a->lazy; l; l = l->next) {
    size_t resident = 0;
    uintptr_t start = (uintptr_t)l->p / page * page, end = (uintptr_t)l->p + l->len;
    for (uintptr_t at = start; at < end;) {
      size_t pages = (end - at + page - 1) / page;
      if (pages > sizeof vec)
        pages = sizeof vec;
      if (mincore((void *)at, pages * page, vec) != 0)
        return 0; /* cannot tell: what was charged stands */
      for (size_t i = 0; i < pages; i++)
        resident += (vec[i] & 1) ? page : 0;
      at += pages * page;
    }
    if (resident > l->charged) {
      if (mem_bound_charge(a->bound, resident - l->charged) < 0) {
        a->failed = 1;
        return -1;
      }
      l->charged = resident;
    }
  }
#else
  (void)a;
#endif
  return 0;
}

int arena_own(struct arena *a, void *p)
{
  struct arena_owned *o = arena_alloc_lazy(a, 1, sizeof *o);
  if (!o)
    return -1;
  o->p = p;
  o->next = a->owned;
  a->owned = o;
  return 0;
}
