/* arena.c - bump allocation in blocks; large requests get a block of their own. */
#include "arena.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define ARENA_BLOCK 65536

struct arena_block {
  struct arena_block *next;
  size_t cap, used;
  max_align_t data[];
};

void arena_init(struct arena *a)
{
  a->head = NULL;
  a->used_total = 0;
  a->failed = 0;
}

void arena_free(struct arena *a)
{
  struct arena_block *b = a->head;
  while (b) {
    struct arena_block *next = b->next;
    free(b);
    b = next;
  }
  a->head = NULL;
  a->used_total = 0;
}

void *arena_calloc(struct arena *a, size_t count, size_t size)
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
  if (!b || b->cap - b->used < n) {
    size_t cap = n > ARENA_BLOCK ? n : ARENA_BLOCK;
    if (cap > SIZE_MAX - sizeof *b) {
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
  memset(p, 0, n);
  return p;
}

char *arena_strndup(struct arena *a, const char *s, size_t n)
{
  char *p = arena_calloc(a, n + 1, 1);
  if (p)
    memcpy(p, s, n);
  return p;
}

void *arena_regrow(struct arena *a, void *p, size_t size)
{
  struct arena_block **at = &a->head, *b, *grown;
  size_t old = 0;
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
  }
  grown = realloc(p ? *at : NULL, sizeof *b + size);
  if (!grown) {
    a->failed = 1;
    return NULL;
  }
  grown->cap = grown->used = size; /* full: never bumped into */
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
