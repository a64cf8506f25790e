/* iqe_poses.c - the model of a poses decode read from the text as the output asks: each joint's
 * name and rest, each animation and each pose, computed again from its line (issue 26: a model
 * joint, an interned name and an 80-byte pose each cost 3 to 6 x a file of `joint` or `pq`
 * lines; a model animation, its play record and its interned name 4 to 7 x `animation a<N>`). */
#include <stdio.h>
#include <string.h>

#include "iqe.h"
#include "pose.h"

/* What the walk reads (model.format_data, in the model's arena): the text, which poses' callers
 * keep while they read the model, and the parser's tables the decode left there. */
struct iqe_poses {
  const unsigned char *data;
  size_t size;
  const size_t *line_marks;
  uint32_t num_lines;
  uint32_t last_line;           /* the line found last, and where the one after it starts: the
                                   output reads lines in file order, so the next is found by
                                   reading on */
  size_t last_next;
  struct iqe_lines joint_lines; /* its far lines copied into the arena */
  const struct iqe_joint *joints;
  const uint32_t *pose_lines;   /* every pose's line: joint j < nb's rest is pose j's */
  const struct iqe_frame *frames; /* each frame's poses in pose_lines (np read, padded) */
  const struct iqe_anim *anims;   /* each animation's line and frame count */
  uint32_t anim_at, anim_first;   /* an animation and its first frame, the sum of the frame
                                     counts before it: the output reads animations in order, so
                                     the next one's is found by adding on */
  uint32_t nb;
  struct trs identity;          /* the rest of a joint without a base pose */
  struct arena *arena;          /* the model's: the name buffer grows there */
  char *name;                   /* the last joint's name, NUL-terminated */
  size_t name_cap;
  char *anim_name;              /* the last animation's, apart: frames print joints' names
                                   while an animation is printed */
  size_t anim_name_cap;
  mdl_status error;             /* why the last read failed (model.read_error): MDL_ENOMEM when
                                   the name buffer could not grow */
};

/* A line's command and its values as dispatch (or fast_reals, which reads the same) gave them to
 * the handler: the surplus dropped, an unreadable one its default. How many the line gives, or
 * -1 when it has no command. */
static int line_values(const struct iqe_line *ln, struct iqe_tok toks[IQE_MAX_VALUES + 2],
                       const struct iqe_command **cmd, double vals[IQE_MAX_VALUES])
{
  const struct iqe_command *c;
  uint32_t n, given;
  n = iqe_tokenize_some(ln, toks, IQE_MAX_VALUES + 2);
  if (n == 0 || toks[0].quoted || !(c = iqe_command_find(toks[0].s, toks[0].len)))
    return -1;
  given = n - 1 > c->max_args ? c->max_args : n - 1;
  for (uint32_t i = 0; i < c->max_args && i < IQE_MAX_VALUES; i++) {
    double v;
    vals[i] = c->defaults[i];
    if (i < given && !toks[1 + i].quoted && iqe_parse_real(toks[1 + i].s, toks[1 + i].len, &v) == IQE_NUM_OK)
      vals[i] = v;
  }
  *cmd = c;
  return (int)given;
}

int iqe_pose_read(const struct iqe_line *line, struct trs *out)
{
  struct iqe_line ln = *line;
  struct iqe_tok toks[IQE_MAX_VALUES + 2];
  double vals[IQE_MAX_VALUES];
  const struct iqe_command *c;
  int given = line_values(&ln, toks, &c, vals);
  if (given < 0 || (c->id != CMD_PQ && c->id != CMD_PM && c->id != CMD_PA))
    return -1;
  if (c->id == CMD_PQ)
    iqe_pose_from_pq(NULL, &ln, toks + 1, vals, (uint32_t)given, out);
  else if (c->id == CMD_PM)
    iqe_pose_from_pm(NULL, &ln, toks + 1, vals, (uint32_t)given, out);
  else
    iqe_pose_from_pa(NULL, &ln, toks + 1, vals, (uint32_t)given, out);
  return 0;
}

/* A name token as the parser keyed it (iqe_name_set: up to its first NUL), into one of the
 * walk's buffers (*buf, *cap bytes) */
static int name_copy(struct iqe_poses *w, char **buf, size_t *cap, const char *s, size_t len)
{
  const char *nul = len ? memchr(s, 0, len) : NULL;
  if (nul)
    len = (size_t)(nul - s);
  if (len + 1 > *cap) {
    size_t grown = *cap * 2 > len + 1 ? *cap * 2 : len + 1;
    char *b = arena_regrow(w->arena, *buf, grown);
    if (!b) {
      w->error = MDL_ENOMEM;
      return -1;
    }
    *buf = b;
    *cap = grown;
  }
  memcpy(*buf, s, len);
  (*buf)[len] = 0;
  return 0;
}

/* Line `line` of the text: read on from the one found last when it is near, else from its mark */
static int line_get(struct iqe_poses *w, uint32_t line, struct iqe_line *ln)
{
  if (w->last_line && line > w->last_line && line - w->last_line <= IQE_LINE_MARK) {
    size_t pos = w->last_next;
    uint32_t lineno = w->last_line;
    ln->no = 0;
    while (iqe_line_next(w->data, w->size, &pos, &lineno, ln) && ln->no < line)
      ;
    if (ln->no != line)
      return 0;
  } else if (!iqe_line_at(w->data, w->size, w->line_marks, w->num_lines, line, ln)) {
    return 0;
  }
  w->last_line = line;
  w->last_next = ln->next;
  return 1;
}

/* model.joint_name: joint j's name from its line (valid until the next call), NULL when it
 * cannot be read */
static const char *iqe_joint_name(const struct model *m, uint32_t j)
{
  struct iqe_poses *w = m->format_data;
  struct iqe_line ln;
  struct iqe_tok t[2];
  uint32_t n;
  if (w)
    w->error = MDL_OK;
  if (!w || j >= m->num_joints || !line_get(w, iqe_lines_get(&w->joint_lines, j), &ln))
    return NULL;
  n = iqe_tokenize_some(&ln, t, 2);
  if (n == 0 || name_copy(w, &w->name, &w->name_cap, n > 1 ? t[1].s : "", n > 1 ? t[1].len : 0) < 0)
    return NULL;
  return w->name;
}

/* model.joint_walk: joint c->at from its line (its name valid until the next call, read as
 * model.joint_name reads it) and its rest from its base pose's line */
static int iqe_joint_walk(const struct model *m, struct model_joint_cursor *c)
{
  struct iqe_poses *w = m->format_data;
  struct iqe_line ln;
  if (!(c->joint.name = iqe_joint_name(m, c->at)))
    return -1;
  c->joint.parent = w->joints[c->at].parent;
  c->joint.rest = 0;
  c->rest = &w->identity;
  if (c->at < w->nb) {
    if (!line_get(w, w->pose_lines[c->at], &ln) || iqe_pose_read(&ln, &c->own_rest) < 0)
      return -1;
    c->rest = &c->own_rest;
  }
  return 0;
}

/* model.frame_get: pose j of frame f from its line, the identity past the frame's last (padded
 * as the reference compiler pads short frames) */
static int iqe_frame_get(const struct model *m, uint32_t f, uint32_t j, struct trs *out)
{
  struct iqe_poses *w = m->format_data;
  struct iqe_line ln;
  if (w)
    w->error = MDL_OK;
  if (!w || !w->frames || f >= m->num_frames || j >= m->num_poses)
    return -1;
  if (j >= w->frames[f].num_poses) {
    trs_identity(out);
    return 0;
  }
  if (!line_get(w, w->pose_lines[w->frames[f].first_pose + j], &ln) || iqe_pose_read(&ln, out) < 0)
    return -1;
  return 0;
}

/* Animation a's first frame: every frame the parser kept is counted in the animation it
 * belongs to, so the frames before a are those the animations before it counted */
static uint32_t anim_first_frame(struct iqe_poses *w, uint32_t a)
{
  if (a < w->anim_at) {
    w->anim_at = 0;
    w->anim_first = 0;
  }
  for (; w->anim_at < a; w->anim_at++)
    w->anim_first += w->anims[w->anim_at].num_frames;
  return w->anim_first;
}

/* Animation a's `loop` and `framerate` lines, read again as iqe_anim_setting took them: every
 * such line after its own and before the next animation's (an animation stays open to the end,
 * the comment section excepted), the last framerate given winning, a negative one 0 */
static void anim_settings(const struct iqe_poses *w, const struct iqe_line *own, uint32_t end_line,
                          struct model_anim *out)
{
  size_t pos = own->next;
  uint32_t lineno = own->no;
  struct iqe_line ln;
  while (iqe_line_next(w->data, w->size, &pos, &lineno, &ln) && ln.no < end_line) {
    struct iqe_tok toks[IQE_MAX_VALUES + 2];
    double vals[IQE_MAX_VALUES];
    const struct iqe_command *c;
    int given;
    /* the command alone first: nearly every line is a frame's or a pose's (loop, framerate
     * and comment have four letters or more) */
    if (iqe_tokenize_some(&ln, toks, 1) == 0 || toks[0].quoted || toks[0].len < 4 ||
        !(c = iqe_command_find(toks[0].s, toks[0].len)))
      continue;
    if (c->id == CMD_COMMENT)
      break;
    if (c->id == CMD_LOOP)
      out->flags |= MODEL_ANIM_LOOP;
    if (c->id != CMD_FRAMERATE || (given = line_values(&ln, toks, &c, vals)) < 1)
      continue;
    out->framerate = vals[0] < 0 ? 0 : vals[0];
  }
}

/* model.anim_get: animation a from its line (its name valid until the next call), its frames
 * those the parser counted for it */
static int iqe_anim_get(const struct model *m, uint32_t a, struct model_anim *out)
{
  struct iqe_poses *w = m->format_data;
  struct iqe_line ln;
  struct iqe_tok t[2];
  char dummy[32];
  const char *s = dummy;
  size_t len;
  uint32_t n;
  if (w)
    w->error = MDL_OK;
  if (!w || !w->anims || a >= m->num_anims || !line_get(w, w->anims[a].line, &ln) ||
      (n = iqe_tokenize_some(&ln, t, 2)) == 0)
    return -1;
  memset(out, 0, sizeof *out);
  if (n > 1) {
    s = t[1].s;
    len = t[1].len;
  } else {
    /* the spec's dummy name, as iqe_anim_name makes it */
    int made = snprintf(dummy, sizeof dummy, "animation%u", (unsigned)a);
    len = made > 0 ? (size_t)made : 0;
  }
  if (name_copy(w, &w->anim_name, &w->anim_name_cap, s, len) < 0)
    return -1;
  out->name = w->anim_name;
  out->first_frame = anim_first_frame(w, a);
  out->num_frames = w->anims[a].num_frames;
  anim_settings(w, &ln, a + 1 < m->num_anims ? w->anims[a + 1].line : UINT32_MAX, out);
  return 0;
}

void iqe_poses_frames(struct iqe_parser *p)
{
  struct model *m = p->m;
  struct iqe_poses *w = m->format_data;
  if (!w)
    return;
  w->frames = p->frames;
  m->frames = NULL;
  m->frame_get = iqe_frame_get;
  m->joint_name = m->num_joints ? iqe_joint_name : NULL;
}

int iqe_poses_attach(struct iqe_parser *p)
{
  struct model *m = p->m;
  struct iqe_poses *w = arena_calloc(&m->arena, 1, sizeof *w);
  uint32_t nj = p->num_joints;
  if (!w)
    return -1;
  w->data = p->data;
  w->size = p->size;
  w->line_marks = p->line_marks;
  w->num_lines = p->num_lines;
  w->joint_lines = p->joint_lines;
  if (p->joint_lines.num_far) {
    /* the parser frees its own (malloc) */
    w->joint_lines.far = arena_calloc(&m->arena, p->joint_lines.num_far, sizeof *w->joint_lines.far);
    if (!w->joint_lines.far)
      return -1;
    memcpy(w->joint_lines.far, p->joint_lines.far, p->joint_lines.num_far * sizeof *w->joint_lines.far);
  } else {
    w->joint_lines.far = NULL;
  }
  w->joint_lines.far_cap = w->joint_lines.num_far;
  w->joints = p->joints;
  w->pose_lines = p->pose_lines;
  w->anims = p->anims;
  w->nb = p->num_base_poses < nj ? p->num_base_poses : nj;
  trs_identity(&w->identity);
  w->arena = &m->arena;
  w->error = MDL_OK;
  m->format_data = w;
  m->read_error = &w->error;
  m->format_data_owner = "iqe-poses";
  m->joints = NULL;
  m->num_joints = nj;
  m->joint_walk = nj ? iqe_joint_walk : NULL;
  m->anims = NULL;
  m->num_anims = p->num_anims;
  m->anim_get = p->num_anims ? iqe_anim_get : NULL;
  return 0;
}
