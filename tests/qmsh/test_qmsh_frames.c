/* test_qmsh_frames.c - QMSH keyframes against the frames of the IQM or IQE file mdlcheck
 * converts them to, compared in world space and computed here, independently of the validator
 * (its own QMSH writer from qmsh-layout.md, its own IQM and IQE readers from iqm.txt, iqe.txt).
 *
 *   test_qmsh_frames gen OUT.qmsh
 *       a version 22 skeletal QMSH: 3 bones in a chain with rotated, moved bone matrices;
 *       animation "even" of 4 keys 1/30 s apart (bone 2 with a non-uniform key scale) and
 *       animation "sparse" of 3 keys at 0, 0.1 and 0.3 s (with --odd: 0, 0.1 and 0.2337 s, which
 *       share no frame grid).
 *   test_qmsh_frames check FILE.iqm|FILE.iqe TOLERANCE
 *       at every frame of FILE, each joint's world matrix must equal the QMSH world bone matrix
 *       at that frame's time, within TOLERANCE per entry. QMSH (row vectors, the engine's
 *       MeshInstance::SetupBones): W_k = Scale(s) * Rotation(q) * Translation(p) * mat_k *
 *       W_parent, the rotation built as DirectXMath's XMMatrixRotationQuaternion; between keys
 *       position and scale are lerped and the rotation slerped (shortest path), as the engine
 *       plays them. IQM/IQE (column vectors): W_j = W_parent * T * R * S. Also: the framerates
 *       are 30 and 10 and both animations have 4 frames ("sparse" sampled on its 0.1 s grid),
 *       (--odd: "sparse" has 8 frames at 7 / 0.2337 fps, frames at f / the file's rate),
 *       the base poses equal the bone matrices in world space, and reading the keys the two
 *       wrong ways (as parent-relative poses; as mat * key) would be off by far more than
 *       TOLERANCE, so the check can tell the meanings apart.
 *
 * Prints the largest differences. Exit 0 pass, 1 fail, 99 usage or unreadable input. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NB 3
#define NA 2
#define MAXK 4
#define MAXF 64

/* ---- the QMSH model ---------------------------------------------------------------------- */

static const int bone_parent[NB] = {0, 1, 2}; /* 1-based, 0 = none */
static const char *const bone_name[NB] = {"hip", "spine", "head"};
static const double bone_axis[NB][3] = {{0, 1, 0}, {0.6, 0, 0.8}, {1, 1, 0}};
static const double bone_angle[NB] = {0.7, 1.9, -1.2};
static const double bone_t[NB][3] = {{0.3, 1, -0.2}, {0, 1.5, 0.1}, {0.2, 0.8, 0}};
static const int anim_keys[NA] = {4, 3};
static const char *const anim_name[NA] = {"even", "sparse"};

struct key {
  float pos[3], rot[4], scale[3];
};

static int odd;                        /* variant: "sparse" keys on no common grid */
static float mat[NB][12];              /* Matrix33 rows: 3 axis rows, translation row */
static float key_time[NA][MAXK];
static struct key keys[NA][MAXK][NB];

static void axis_angle(const double axis[3], double angle, double q[4])
{
  double n = sqrt(axis[0] * axis[0] + axis[1] * axis[1] + axis[2] * axis[2]);
  for (int i = 0; i < 3; i++)
    q[i] = axis[i] / n * sin(angle / 2);
  q[3] = cos(angle / 2);
}

/* XMMatrixRotationQuaternion: the row-vector rotation matrix of q (3x3, row-major). */
static void dx_rotation(const double q[4], double r[9])
{
  double x = q[0], y = q[1], z = q[2], w = q[3];
  r[0] = 1 - 2 * y * y - 2 * z * z;
  r[1] = 2 * x * y + 2 * z * w;
  r[2] = 2 * x * z - 2 * y * w;
  r[3] = 2 * x * y - 2 * z * w;
  r[4] = 1 - 2 * x * x - 2 * z * z;
  r[5] = 2 * y * z + 2 * x * w;
  r[6] = 2 * x * z + 2 * y * w;
  r[7] = 2 * y * z - 2 * x * w;
  r[8] = 1 - 2 * x * x - 2 * y * y;
}

static void model_build(void)
{
  for (int k = 0; k < NB; k++) {
    double q[4], r[9];
    axis_angle(bone_axis[k], bone_angle[k], q);
    dx_rotation(q, r);
    for (int i = 0; i < 9; i++)
      mat[k][i] = (float)r[i];
    for (int i = 0; i < 3; i++)
      mat[k][9 + i] = (float)bone_t[k][i];
  }
  for (int a = 0; a < NA; a++)
    for (int f = 0; f < anim_keys[a]; f++) {
      static const float sparse[2][3] = {{0.0f, 0.1f, 0.3f}, {0.0f, 0.1f, 0.2337f}};
      key_time[a][f] = a == 0 ? (float)(f / 30.0) : sparse[odd][f];
      for (int k = 0; k < NB; k++) {
        struct key *kk = &keys[a][f][k];
        double axis[3] = {k == 1 ? 1.0 : 0.2, 1, 0.5 * a}, q[4];
        axis_angle(axis, 0.25 * (f + 1) * (k + 1) * (a ? -1.5 : 1), q);
        kk->pos[0] = (float)(0.05 * f - 0.02 * k);
        kk->pos[1] = (float)(0.1 * (k + 1) * (a ? -1 : 1) * f / 3);
        kk->pos[2] = (float)(0.03 * f);
        for (int i = 0; i < 4; i++)
          kk->rot[i] = (float)q[i];
        for (int i = 0; i < 3; i++)
          kk->scale[i] = 1;
        if (a == 0 && k == 1)
          kk->scale[1] = (float)(1 + 0.1 * f);
      }
    }
}

/* ---- writing it (qmsh-layout.md, version 22) --------------------------------------------- */

struct out {
  unsigned char b[8192];
  size_t n;
};

static void put(struct out *o, const void *p, size_t n)
{
  if (o->n + n > sizeof o->b) {
    fprintf(stderr, "test_qmsh_frames: buffer too small\n");
    exit(99);
  }
  memcpy(o->b + o->n, p, n);
  o->n += n;
}

static void put_u8(struct out *o, unsigned v)
{
  unsigned char c = (unsigned char)v;
  put(o, &c, 1);
}

static void put_u16(struct out *o, unsigned v)
{
  put_u8(o, v & 0xff);
  put_u8(o, (v >> 8) & 0xff);
}

static void put_u32(struct out *o, uint32_t v)
{
  put_u16(o, v & 0xffff);
  put_u16(o, v >> 16);
}

static void put_f32(struct out *o, float f)
{
  uint32_t u;
  memcpy(&u, &f, 4);
  put_u32(o, u);
}

static void put_str(struct out *o, const char *s)
{
  put_u8(o, (unsigned)strlen(s));
  put(o, s, strlen(s));
}

static int gen(const char *path)
{
  static const float pos[3][3] = {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}};
  struct out o;
  size_t po_at;
  FILE *f;

  o.n = 0;
  put(&o, "QMSH", 4);
  put_u8(&o, 22);
  put_u8(&o, 0x02); /* ANIMATED */
  put_u16(&o, 3);   /* n_verts */
  put_u16(&o, 1);   /* n_tris */
  put_u16(&o, 1);   /* n_subs */
  put_u16(&o, NB);
  put_u16(&o, NA);
  put_u16(&o, 0);   /* n_points */
  put_u16(&o, 1);   /* n_groups */
  put_f32(&o, 1);   /* radius */
  for (int i = 0; i < 6; i++)
    put_f32(&o, i == 3 || i == 4 ? 1.0f : 0.0f); /* bbox (0,0,0)-(1,1,0) */
  po_at = o.n;
  put_u32(&o, 0);
  for (int i = 0; i < 9; i++)
    put_f32(&o, i < 3 ? 1.0f : i == 7 ? 1.0f : 0.0f); /* cam_pos (1,1,1), target 0, up (0,1,0) */
  for (int v = 0; v < 3; v++) { /* ANIMATED vertex: pos, weight, idx[4], normal, tex */
    for (int i = 0; i < 3; i++)
      put_f32(&o, pos[v][i]);
    put_f32(&o, 1);
    put_u8(&o, (unsigned)(v + 1));
    put_u8(&o, 0);
    put_u8(&o, 0);
    put_u8(&o, 0);
    put_f32(&o, 0);
    put_f32(&o, 0);
    put_f32(&o, 1);
    put_f32(&o, 0);
    put_f32(&o, 0);
  }
  put_u16(&o, 0);
  put_u16(&o, 1);
  put_u16(&o, 2);
  /* submesh: first, tris, min_ind, n_ind, name, texture, v18 specular, v16 specular map */
  put_u16(&o, 0);
  put_u16(&o, 1);
  put_u16(&o, 0);
  put_u16(&o, 3);
  put_str(&o, "body");
  put_str(&o, "");
  put_f32(&o, 1);
  put_f32(&o, 1);
  put_f32(&o, 1);
  put_f32(&o, 0.2f);
  put_u32(&o, 10);
  put_str(&o, "");
  for (int k = 0; k < NB; k++) { /* v21 bone record */
    put_str(&o, bone_name[k]);
    put_u16(&o, (unsigned)bone_parent[k]);
    for (int i = 0; i < 12; i++)
      put_f32(&o, mat[k][i]);
    for (int r = 0; r < 4; r++)
      for (int c = 0; c < 4; c++)
        put_f32(&o, c < 3 ? mat[k][r * 3 + c] : r == 3 ? 1.0f : 0.0f);
    for (int i = 0; i < 8; i++)
      put_f32(&o, i < 3 ? mat[k][9 + i] : 0.0f); /* head, tail */
    put_u8(&o, 0);
  }
  put_str(&o, "all"); /* one group of every bone */
  put_u16(&o, 0);
  put_u8(&o, NB);
  for (int k = 0; k < NB; k++)
    put_u8(&o, (unsigned)(k + 1));
  for (int a = 0; a < NA; a++) {
    put_str(&o, anim_name[a]);
    put_f32(&o, key_time[a][anim_keys[a] - 1]);
    put_u16(&o, (unsigned)anim_keys[a]);
    for (int fr = 0; fr < anim_keys[a]; fr++) {
      put_f32(&o, key_time[a][fr]);
      for (int k = 0; k < NB; k++) {
        for (int i = 0; i < 3; i++)
          put_f32(&o, keys[a][fr][k].pos[i]);
        for (int i = 0; i < 4; i++)
          put_f32(&o, keys[a][fr][k].rot[i]);
        for (int i = 0; i < 3; i++)
          put_f32(&o, keys[a][fr][k].scale[i]);
      }
    }
  }
  {
    size_t end = o.n;
    o.n = po_at;
    put_u32(&o, (uint32_t)end); /* points (none) start at the end */
    o.n = end;
  }
  f = fopen(path, "wb");
  if (!f || fwrite(o.b, 1, o.n, f) != o.n || fclose(f) != 0) {
    fprintf(stderr, "test_qmsh_frames: cannot write %s\n", path);
    return 99;
  }
  return 0;
}

/* ---- the converted file: joints, animations, frames -------------------------------------- */

struct pose {
  double t[3], r[4], s[3];
};

struct conv {
  int nj, na, nf;
  int parent[NB];
  struct pose base[NB];
  int first[NA], count[NA];
  double rate[NA];
  struct pose frames[MAXF][NB];
};

static unsigned char *slurp(const char *path, size_t *n)
{
  FILE *f = fopen(path, "rb");
  unsigned char *d;
  long len;
  if (!f)
    return NULL;
  fseek(f, 0, SEEK_END);
  len = ftell(f);
  fseek(f, 0, SEEK_SET);
  d = malloc((size_t)len + 1);
  if (!d || fread(d, 1, (size_t)len, f) != (size_t)len) {
    fclose(f);
    free(d);
    return NULL;
  }
  fclose(f);
  d[len] = 0;
  *n = (size_t)len;
  return d;
}

static uint32_t rd32(const unsigned char *d, size_t at)
{
  return (uint32_t)d[at] | (uint32_t)d[at + 1] << 8 | (uint32_t)d[at + 2] << 16 |
         (uint32_t)d[at + 3] << 24;
}

static float rdf(const unsigned char *d, size_t at)
{
  uint32_t u = rd32(d, at);
  float f;
  memcpy(&f, &u, 4);
  return f;
}

/* iqm.txt: header fields by offset; joints 48 bytes, poses 88, anims 20, frames u16. */
static int read_iqm(const unsigned char *d, size_t n, struct conv *c)
{
  uint32_t nj, oj, np, op, na, oa, nf, ofr;
  size_t at;
  if (n < 124 || memcmp(d, "INTERQUAKEMODEL", 16) || rd32(d, 16) != 2)
    return -1;
  nj = rd32(d, 68);
  oj = rd32(d, 72);
  np = rd32(d, 76);
  op = rd32(d, 80);
  na = rd32(d, 84);
  oa = rd32(d, 88);
  nf = rd32(d, 92);
  ofr = rd32(d, 100);
  if (nj != NB || np != NB || na != NA || nf > MAXF || (uint64_t)oj + 48 * nj > n ||
      (uint64_t)op + 88 * np > n || (uint64_t)oa + 20 * na > n)
    return -1;
  c->nj = (int)nj;
  c->na = (int)na;
  c->nf = (int)nf;
  for (uint32_t j = 0; j < nj; j++) {
    size_t p = oj + 48 * (size_t)j;
    c->parent[j] = (int32_t)rd32(d, p + 4);
    for (int i = 0; i < 3; i++) {
      c->base[j].t[i] = rdf(d, p + 8 + 4 * (size_t)i);
      c->base[j].s[i] = rdf(d, p + 36 + 4 * (size_t)i);
    }
    for (int i = 0; i < 4; i++)
      c->base[j].r[i] = rdf(d, p + 20 + 4 * (size_t)i);
  }
  for (uint32_t a = 0; a < na; a++) {
    size_t p = oa + 20 * (size_t)a;
    c->first[a] = (int)rd32(d, p + 4);
    c->count[a] = (int)rd32(d, p + 8);
    c->rate[a] = rdf(d, p + 12);
  }
  at = ofr;
  for (uint32_t f = 0; f < nf; f++)
    for (uint32_t j = 0; j < np; j++) {
      size_t p = op + 88 * (size_t)j;
      uint32_t mask = rd32(d, p + 4);
      double v[10];
      for (int ch = 0; ch < 10; ch++) {
        v[ch] = rdf(d, p + 8 + 4 * (size_t)ch);
        if (mask & (1u << ch)) {
          if (at + 2 > n)
            return -1;
          v[ch] += (double)(d[at] | d[at + 1] << 8) * rdf(d, p + 48 + 4 * (size_t)ch);
          at += 2;
        }
      }
      memcpy(c->frames[f][j].t, v, 3 * sizeof *v);
      memcpy(c->frames[f][j].r, v + 3, 4 * sizeof *v);
      memcpy(c->frames[f][j].s, v + 7, 3 * sizeof *v);
    }
  return 0;
}

/* iqe.txt: `joint "name" parent`, `pq` t r [s], `animation "name"`, `framerate`, `frame`. */
static int read_iqe(char *text, struct conv *c)
{
  int a = -1, f = -1, j = 0, in_anim = 0;
  memset(c, 0, sizeof *c);
  for (char *line = strtok(text, "\n"); line; line = strtok(NULL, "\n")) {
    while (*line == ' ' || *line == '\t')
      line++;
    if (!strncmp(line, "joint ", 6)) {
      char *q = strrchr(line, '"');
      if (!q || c->nj >= NB)
        return -1;
      c->parent[c->nj++] = atoi(q + 1);
    } else if (!strncmp(line, "pq ", 3) || !strncmp(line, "pq\t", 3)) {
      struct pose p = {{0, 0, 0}, {0, 0, 0, 1}, {1, 1, 1}};
      double v[10];
      int k = sscanf(line + 3, "%lf %lf %lf %lf %lf %lf %lf %lf %lf %lf", &v[0], &v[1], &v[2],
                     &v[3], &v[4], &v[5], &v[6], &v[7], &v[8], &v[9]);
      if (k < 7)
        return -1;
      memcpy(p.t, v, 3 * sizeof *v);
      memcpy(p.r, v + 3, 4 * sizeof *v);
      if (k >= 10)
        memcpy(p.s, v + 7, 3 * sizeof *v);
      if (!in_anim) {
        if (c->nj < 1)
          return -1;
        c->base[c->nj - 1] = p;
      } else {
        if (f < 0 || f >= MAXF || j >= NB)
          return -1;
        c->frames[f][j++] = p;
      }
    } else if (!strncmp(line, "animation", 9)) {
      if (++a >= NA)
        return -1;
      in_anim = 1;
      c->first[a] = f + 1;
      c->rate[a] = 0;
      c->na = a + 1;
    } else if (!strncmp(line, "framerate ", 10)) {
      if (a < 0)
        return -1;
      c->rate[a] = atof(line + 10);
    } else if (!strncmp(line, "frame", 5) && (line[5] == 0 || line[5] == ' ' || line[5] == '\r')) {
      if (a < 0 || ++f >= MAXF)
        return -1;
      c->count[a]++;
      j = 0;
    }
  }
  c->nf = f + 1;
  return 0;
}

/* ---- world matrices ---------------------------------------------------------------------- */


static void m4_mul(const double a[16], const double b[16], double o[16])
{
  double r[16];
  for (int i = 0; i < 4; i++)
    for (int j = 0; j < 4; j++)
      r[i * 4 + j] = a[i * 4] * b[j] + a[i * 4 + 1] * b[4 + j] + a[i * 4 + 2] * b[8 + j] +
                     a[i * 4 + 3] * b[12 + j];
  memcpy(o, r, sizeof r);
}

/* Column-vector T * R * S of a pose (iqm.txt: the joint matrix from translate, rotate, scale). */
static void iqm_local(const struct pose *p, double m[16])
{
  double q[4], n, r[9];
  n = sqrt(p->r[0] * p->r[0] + p->r[1] * p->r[1] + p->r[2] * p->r[2] + p->r[3] * p->r[3]);
  for (int i = 0; i < 4; i++)
    q[i] = p->r[i] / n;
  /* the column-vector rotation is the transpose of the row-vector one */
  dx_rotation(q, r);
  for (int i = 0; i < 3; i++) {
    for (int j = 0; j < 3; j++)
      m[i * 4 + j] = r[j * 3 + i] * p->s[j];
    m[i * 4 + 3] = p->t[i];
    m[12 + i] = 0;
  }
  m[15] = 1;
}

/* Row-vector Scale * Rotation * Translation of a key. */
static void key_local(const struct key *k, double m[16])
{
  double q[4], r[9];
  for (int i = 0; i < 4; i++)
    q[i] = k->rot[i];
  dx_rotation(q, r);
  for (int i = 0; i < 3; i++) {
    for (int j = 0; j < 3; j++)
      m[i * 4 + j] = k->scale[i] * r[i * 3 + j];
    m[i * 4 + 3] = 0;
    m[12 + i] = k->pos[i];
  }
  m[15] = 1;
}

static void mat_m4(int k, double m[16])
{
  for (int r = 0; r < 4; r++) {
    for (int c = 0; c < 3; c++)
      m[r * 4 + c] = mat[k][r * 3 + c];
    m[r * 4 + 3] = r == 3;
  }
}

/* The key of bone k in animation a at time tau, interpolated as the engine plays keys. */
static void key_at(int a, int k, double tau, struct key *out)
{
  int n = anim_keys[a], i;
  double u, qa[4], qb[4], d = 0, wa, wb, len = 0;
  for (i = 0; i < n; i++)
    if (fabs(key_time[a][i] - tau) < 1e-6) {
      *out = keys[a][i][k];
      return;
    }
  for (i = 0; i + 1 < n && key_time[a][i + 1] < tau; i++)
    ;
  if (i + 1 >= n) {
    *out = keys[a][n - 1][k];
    return;
  }
  u = (tau - key_time[a][i]) / (key_time[a][i + 1] - key_time[a][i]);
  for (int c = 0; c < 3; c++) {
    out->pos[c] = (float)(keys[a][i][k].pos[c] + u * (keys[a][i + 1][k].pos[c] - keys[a][i][k].pos[c]));
    out->scale[c] =
      (float)(keys[a][i][k].scale[c] + u * (keys[a][i + 1][k].scale[c] - keys[a][i][k].scale[c]));
  }
  for (int c = 0; c < 4; c++) {
    qa[c] = keys[a][i][k].rot[c];
    qb[c] = keys[a][i + 1][k].rot[c];
    d += qa[c] * qb[c];
  }
  if (d < 0) {
    d = -d;
    for (int c = 0; c < 4; c++)
      qb[c] = -qb[c];
  }
  {
    double th = acos(d > 1 ? 1 : d);
    wa = sin((1 - u) * th) / sin(th);
    wb = sin(u * th) / sin(th);
  }
  for (int c = 0; c < 4; c++) {
    qa[c] = wa * qa[c] + wb * qb[c];
    len += qa[c] * qa[c];
  }
  for (int c = 0; c < 4; c++)
    out->rot[c] = (float)(qa[c] / sqrt(len));
}

enum meaning { RIGHT, AS_PARENT_RELATIVE, MAT_TIMES_KEY };

/* QMSH world matrices (row vectors) of every bone at time tau of animation a. */
static void qmsh_world(int a, double tau, enum meaning how, double w[NB][16])
{
  for (int k = 0; k < NB; k++) {
    struct key kk;
    double kl[16], mk[16], local[16];
    key_at(a, k, tau, &kk);
    key_local(&kk, kl);
    mat_m4(k, mk);
    if (how == RIGHT)
      m4_mul(kl, mk, local);
    else if (how == MAT_TIMES_KEY)
      m4_mul(mk, kl, local);
    else
      memcpy(local, kl, sizeof local);
    if (bone_parent[k])
      m4_mul(local, w[bone_parent[k] - 1], w[k]);
    else
      memcpy(w[k], local, sizeof local);
  }
}

/* Largest |A - B^T| over the bones: A column-vector, B row-vector world matrices. */
static double world_diff(double a[NB][16], double b[NB][16])
{
  double e = 0;
  for (int k = 0; k < NB; k++)
    for (int r = 0; r < 4; r++)
      for (int c = 0; c < 4; c++) {
        double d = fabs(a[k][r * 4 + c] - b[k][c * 4 + r]);
        if (!(d <= e))
          e = d;
      }
  return e;
}

static void conv_world(const struct conv *c, const struct pose *poses, double w[NB][16])
{
  for (int j = 0; j < NB; j++) {
    double l[16];
    iqm_local(&poses[j], l);
    if (c->parent[j] >= 0)
      m4_mul(w[c->parent[j]], l, w[j]);
    else
      memcpy(w[j], l, sizeof l);
  }
}

static int check(const char *path, double tol)
{
  struct conv *c = calloc(1, sizeof *c);
  size_t n = 0, len = strlen(path);
  unsigned char *d = slurp(path, &n);
  int fails = 0, rc;
  double worst = 0, worst_wrong = INFINITY, base_err;
  double wc[NB][16], wq[NB][16];

  if (!c || !d) {
    fprintf(stderr, "test_qmsh_frames: cannot read %s\n", path);
    return 99;
  }
  rc = len > 4 && !strcmp(path + len - 4, ".iqe") ? read_iqe((char *)d, c) : read_iqm(d, n, c);
  free(d);
  if (rc < 0 || c->nj != NB || c->na != NA) {
    fprintf(stderr, "test_qmsh_frames: %s: not the converted model (%d joints, %d anims)\n", path,
            c->nj, c->na);
    free(c);
    return 1;
  }
  for (int j = 0; j < NB; j++)
    if (c->parent[j] != bone_parent[j] - 1) {
      printf("FAIL: joint %d has parent %d, expected %d\n", j, c->parent[j], bone_parent[j] - 1);
      fails++;
    }
  /* base pose: world joint = world bone matrix (mat_k * W_parent) */
  conv_world(c, c->base, wc);
  for (int k = 0; k < NB; k++) {
    double mk[16];
    mat_m4(k, mk);
    if (bone_parent[k])
      m4_mul(mk, wq[bone_parent[k] - 1], wq[k]);
    else
      memcpy(wq[k], mk, sizeof mk);
  }
  base_err = world_diff(wc, wq);
  printf("%s: base pose: largest world difference %.3g\n", path, base_err);
  if (!(base_err <= 1e-6)) {
    printf("FAIL: base pose differs from the bone matrices by %.3g\n", base_err);
    fails++;
  }
  for (int a = 0; a < NA; a++) {
    /* "sparse" on no grid: sampled at 30 fps stretched so that its last key is a frame */
    double want_rate[NA] = {30, odd ? 7 / (double)0.2337f : 10};
    int want_count[NA] = {4, odd ? 8 : 4};
    double aw = 0, wrong = INFINITY;
    int nf = c->count[a] < want_count[a] ? c->count[a] : want_count[a];
    if (c->first[a] < 0 || c->first[a] + nf > c->nf) {
      printf("FAIL: animation %s: frames %d.. outside the %d frames\n", anim_name[a], c->first[a],
             c->nf);
      fails++;
      continue;
    }
    if (c->count[a] != want_count[a] || fabs(c->rate[a] - want_rate[a]) > 1e-4 * want_rate[a]) {
      /* still compared below, frame f at f / the expected rate */
      printf("FAIL: animation %s: %d frames at %g fps, expected %d at %g\n", anim_name[a],
             c->count[a], c->rate[a], want_count[a], want_rate[a]);
      fails++;
    }
    for (int f = 0; f < nf; f++) {
      double tau = f / (c->rate[a] > 0 ? c->rate[a] : want_rate[a]), e, w1, w2;
      conv_world(c, c->frames[c->first[a] + f], wc);
      qmsh_world(a, tau, RIGHT, wq);
      e = world_diff(wc, wq);
      qmsh_world(a, tau, AS_PARENT_RELATIVE, wq);
      w1 = world_diff(wc, wq);
      qmsh_world(a, tau, MAT_TIMES_KEY, wq);
      w2 = world_diff(wc, wq);
      if (!(e <= aw))
        aw = e;
      if (w1 < wrong)
        wrong = w1;
      if (w2 < wrong)
        wrong = w2;
      if (!(e <= tol)) {
        printf("FAIL: animation %s frame %d (t = %g s): world matrices differ by %.3g > %.3g\n",
               anim_name[a], f, tau, e, tol);
        fails++;
      }
    }
    printf("%s: animation %s: %d frames at %g fps, largest world difference %.3g (tolerance "
           "%.3g); the wrong meanings would be at least %.3g off\n",
           path, anim_name[a], c->count[a], c->rate[a], aw, tol, wrong);
    if (aw > worst)
      worst = aw;
    if (wrong < worst_wrong)
      worst_wrong = wrong;
  }
  if (!(worst_wrong > 100 * tol)) {
    printf("FAIL: the check cannot tell the meanings apart (%.3g vs tolerance %.3g)\n",
           worst_wrong, tol);
    fails++;
  }
  free(c);
  return fails ? 1 : 0;
}

int main(int argc, char **argv)
{
  int at = 1;
  if (argc > 1 && !strcmp(argv[1], "--odd")) {
    odd = 1;
    at = 2;
  }
  model_build();
  if (argc == at + 2 && !strcmp(argv[at], "gen"))
    return gen(argv[at + 1]);
  if (argc == at + 3 && !strcmp(argv[at], "check"))
    return check(argv[at + 1], atof(argv[at + 2]));
  fprintf(stderr, "usage: test_qmsh_frames [--odd] gen OUT.qmsh | "
                  "[--odd] check FILE.iqm|FILE.iqe TOLERANCE\n");
  return 99;
}
