/* iqm_header.c - the 124-byte header: magic, version, filesize, flags (R1-R3, R11). */
#include <stdio.h>

#include "iqm.h"

static const char iqm_magic[16] = "INTERQUAKEMODEL";

/* Printable rendering of the magic bytes for a message. */
static void magic_text(char *out, const unsigned char *p, size_t n)
{
  size_t k = 0;
  for (size_t i = 0; i < n && k + 5 < 80; i++) {
    if (p[i] >= 0x20 && p[i] < 0x7f && p[i] != '\\')
      out[k++] = (char)p[i];
    else
      k += (size_t)snprintf(out + k, 80 - k, "\\x%02x", p[i]);
  }
  out[k] = 0;
}

/* Does a section of count records of size bytes at ofs end where another section starts? */
static int ends_at_a_start(const struct iqm *q, uint32_t ofs, uint32_t count, uint32_t size)
{
  static const unsigned ofs_fields[] = {
    H_OFS_TEXT, H_OFS_MESHES, H_OFS_VARRAYS, H_OFS_TRIANGLES, H_OFS_ADJACENCY, H_OFS_JOINTS,
    H_OFS_POSES, H_OFS_ANIMS, H_OFS_FRAMES, H_OFS_BOUNDS, H_OFS_COMMENT, H_OFS_EXTENSIONS
  };
  uint64_t end = (uint64_t)ofs + (uint64_t)count * size;
  if (end == q->size || (end + 3) / 4 * 4 == q->size)
    return 1;
  for (size_t i = 0; i < sizeof ofs_fields / sizeof ofs_fields[0]; i++) {
    uint64_t s = HV(q, ofs_fields[i]);
    if (s && (s == end || s == (end + 3) / 4 * 4))
      return 1;
  }
  return 0;
}

/* A file labelled version 1 whose joints and poses have exactly the version 2 sizes is a
 * version 2 file with a broken version field: check it as version 2. */
static int legacy_sizes_misfit(const struct iqm *q)
{
  uint32_t nj = HV(q, H_NUM_JOINTS), np = HV(q, H_NUM_POSES);
  int v1 = 1, v2 = 1;
  if (!nj && !np)
    return 0;
  if (nj) {
    v1 &= ends_at_a_start(q, HV(q, H_OFS_JOINTS), nj, 44);
    v2 &= ends_at_a_start(q, HV(q, H_OFS_JOINTS), nj, 48);
  }
  if (np) {
    v1 &= ends_at_a_start(q, HV(q, H_OFS_POSES), np, 80);
    v2 &= ends_at_a_start(q, HV(q, H_OFS_POSES), np, 88);
  }
  return v2 && !v1;
}

int iqm_header_check(struct iqm *q)
{
  const unsigned char *h = reader_ptr(q->in, 0, q->size < 16 ? q->size : 16);
  size_t n = q->size < 16 ? q->size : 16;
  char text[96];

  /* R1: the 15 letters; a short file shows how far it matched */
  for (size_t i = 0; i < 15; i++) {
    if (i >= n || h[i] != (unsigned char)iqm_magic[i]) {
      struct mdl_loc loc = loc_bin(i < n ? i : n, "header.magic");
      magic_text(text, h ? h : (const unsigned char *)"", n < 15 ? n : 15);
      diag_emit(q->diag, RULE_IQM_MAGIC, &loc, "\"INTERQUAKEMODEL\\0\"", "\"%s\"", text);
      return -1;
    }
  }
  if (q->size < IQM_HEADER_SIZE) {
    struct mdl_loc loc = loc_bin(q->size, "header");
    diag_emit(q->diag, RULE_IQM_HEADER_TRUNCATED, &loc, "124", "%llu",
              (unsigned long long)q->size);
    return -1;
  }
  if (h[15] != 0) {
    struct mdl_loc loc = loc_bin(15, "header.magic[15]");
    diag_emit(q->diag, RULE_IQM_MAGIC_NUL, &loc, "0x00", "0x%02x", h[15]);
  }
  for (unsigned off = 16; off < IQM_HEADER_SIZE; off += 4)
    q->hdr[off / 4] = reader_u32_at(q->in, off);

  q->version = 2;
  if (HV(q, H_VERSION) == 1) {
    struct mdl_loc loc = loc_bin(H_VERSION, "header.version");
    q->version = 1;
    if (legacy_sizes_misfit(q)) {
      /* a version 2 file with a broken version field: check it as version 2 */
      diag_emit(q->diag, RULE_IQM_VERSION, &loc, "2: the sections have the version 2 sizes",
                "1, but joints and poses end where 48- and 88-byte records end");
      q->version = 2;
    } else {
      diag_emit(q->diag, RULE_IQM_LEGACY_VERSION, &loc, "2", "1");
    }
  } else if (HV(q, H_VERSION) != 2) {
    /* an unknown version: check it with the v2 layout, which is all we know */
    struct mdl_loc loc = loc_bin(H_VERSION, "header.version");
    diag_emit(q->diag, RULE_IQM_VERSION, &loc, "2 (or 1, the legacy layout)", "%u",
              HV(q, H_VERSION));
  }
  q->joint_size = q->version == 1 ? 44 : 48;
  q->pose_size = q->version == 1 ? 80 : 88;
  q->nchannels = q->version == 1 ? 9 : 10;

  if (HV(q, H_FILESIZE) != q->size) {
    struct mdl_loc loc = loc_bin(H_FILESIZE, "header.filesize");
    char expected[32];
    snprintf(expected, sizeof expected, "%llu (the file's length)", (unsigned long long)q->size);
    diag_emit(q->diag, RULE_IQM_FILESIZE, &loc, expected, "%u", HV(q, H_FILESIZE));
  }
  if (HV(q, H_FILESIZE) > (16u << 20) || q->size > (16u << 20)) {
    struct mdl_loc loc = loc_bin(H_FILESIZE, "header.filesize");
    diag_emit(q->diag, RULE_IQM_FILESIZE_LIMIT, &loc, "<= 16777216",
              "%llu", (unsigned long long)(q->size > HV(q, H_FILESIZE) ? q->size : HV(q, H_FILESIZE)));
  }
  if (HV(q, H_FLAGS) != 0) {
    struct mdl_loc loc = loc_bin(H_FLAGS, "header.flags");
    diag_emit(q->diag, RULE_IQM_HEADER_FLAGS, &loc, "0", "0x%08x", HV(q, H_FLAGS));
  }
  q->m->flags = HV(q, H_FLAGS);
  return 0;
}
