/* mem_bound.c - the decode's memory bound (--max-memory): a sum of what the decoder's own
 * structures hold, checked where they grow (a block, a table's doubling), never per entry. */
#include "mem_bound.h"

/* The automatic bound: the decoder's structures within twice the text and 48 MiB, so that with
 * the text itself and the process (about 16 MiB) the peak stays within 3 x the text + 64 MiB
 * (issue 26). The real files' structures hold well under one text's size. */
#define AUTO_PER_BYTE 2ULL
#define AUTO_FIXED (48ULL << 20)

static unsigned long long auto_limit(const struct mem_bound *b)
{
  unsigned long long t = b->text;
  return t > (~0ULL - AUTO_FIXED) / b->per_byte ? ~0ULL : t * b->per_byte + AUTO_FIXED;
}

void mem_bound_init(struct mem_bound *b, const mdl_options *options, size_t text_size)
{
  unsigned long long want = options ? options->max_memory : MDL_MAX_MEMORY_AUTO;
  b->used = 0;
  b->hit = 0;
  b->text = text_size;
  b->per_byte = AUTO_PER_BYTE;
  b->automatic = want == MDL_MAX_MEMORY_AUTO;
  b->limit = b->automatic ? auto_limit(b) : want == MDL_MAX_MEMORY_NONE ? 0 : want;
}

void mem_bound_init_model(struct mem_bound *b, const mdl_options *options, size_t text_size)
{
  mem_bound_init(b, options, text_size);
  b->per_byte = MEM_BOUND_MODEL_PER_BYTE;
  if (b->automatic)
    b->limit = auto_limit(b);
}

void mem_bound_text(struct mem_bound *b, size_t from, size_t to)
{
  if (!b)
    return;
  b->text = b->text > from ? b->text - from : 0;
  mem_bound_add_text(b, to);
}

void mem_bound_add_text(struct mem_bound *b, size_t n)
{
  if (!b)
    return;
  b->text = n > ~0ULL - b->text ? ~0ULL : b->text + n;
  if (b->automatic)
    b->limit = auto_limit(b);
}

int mem_bound_charge(struct mem_bound *b, size_t n)
{
  if (!b || !b->limit)
    return 0;
  if (b->used > b->limit || n > b->limit - b->used) {
    b->hit = 1;
    return -1;
  }
  b->used += n;
  return 0;
}

int mem_bound_try(struct mem_bound *b, size_t n)
{
  if (!b || !b->limit)
    return 0;
  if (b->used > b->limit || n > b->limit - b->used)
    return -1;
  b->used += n;
  return 0;
}

int mem_bound_grow(struct mem_bound *b, size_t old_bytes, size_t new_bytes)
{
  return new_bytes > old_bytes ? mem_bound_charge(b, new_bytes - old_bytes) : 0;
}

void mem_bound_release(struct mem_bound *b, size_t n)
{
  if (b)
    b->used = n < b->used ? b->used - n : 0;
}
