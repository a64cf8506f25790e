/* iqe_anim.c - animations, keyframes, loop and framerate (iqe.txt "Animations"). Frames of all
 * animations form one global strip, as in IQM. */
#include <stdio.h>
#include <string.h>

#include "iqe.h"

void iqe_anim_close_frame(struct iqe_parser *p, uint32_t line)
{
  struct iqe_frame *f;
  if (!p->frame_open || p->num_frames == 0)
    return;
  p->frame_open = 0;
  f = &p->frames[p->num_frames - 1];
  if (f->num_poses > 0)
    return;
  if (line)
    iqe_emit(p, RULE_IQE_FRAME_EMPTY, f->line, 0, NULL, "line %u", line);
  else
    iqe_emit(p, RULE_IQE_FRAME_EMPTY, f->line, 0, NULL, "%s", "the end of the file");
  p->num_frames--;
  p->anims[p->num_anims - 1].num_frames--;
}

void iqe_anim_begin(struct iqe_parser *p, const struct iqe_line *ln, const struct iqe_tok *args,
                    uint32_t nargs, const double *vals, uint32_t given)
{
  struct iqe_anim *a;
  (void)vals;
  (void)given;
  iqe_anim_close_frame(p, ln->no);
  if (p->num_anims >= p->counts[CMD_ANIMATION])
    return;
  a = &p->anims[p->num_anims++];
  memset(a, 0, sizeof *a);
  a->line = ln->no;
  if (p->anim_play) {
    memset(&p->anim_play[p->num_anims - 1], 0, sizeof *p->anim_play);
    p->anim_play[p->num_anims - 1].first_frame = p->num_frames;
  }
  p->frame_number_noted = 0;
  if (nargs == 0) {
    /* the spec's "unused dummy name" (the reference compiler writes ""), made when read */
    char path[32];
    snprintf(path, sizeof path, "animation %u", p->num_anims - 1);
    a->name = IQE_ANIM_UNNAMED;
    iqe_emit_path(p, RULE_IQE_NAME_MISSING, ln->no, args[-1].col, path,
                  "the spec gives it a dummy name, the reference compiler an empty one", NULL);
  } else {
    iqe_arg_name_check(p, ln, args, nargs);
    a->name = iqe_name_set_key(p, &p->anim_set, &args[0], p->num_anims - 1);
  }
  p->in_animation = 1;
  p->frame_open = 0;
}

void iqe_anim_setting(struct iqe_parser *p, const struct iqe_line *ln, const struct iqe_tok *args,
                      uint32_t nargs, const double *vals, uint32_t given)
{
  const struct iqe_tok *cmd = args - 1;
  int is_loop = cmd->len == 4;
  struct iqe_anim_play unkept = {0, 0, 0}, *play;
  (void)nargs;
  if (!p->in_animation || p->num_anims == 0) {
    iqe_emit(p, RULE_IQE_OUTSIDE_ANIMATION, ln->no, cmd->col, NULL, "%s",
             is_loop ? "loop" : "framerate");
    return;
  }
  play = p->anim_play ? &p->anim_play[p->num_anims - 1] : &unkept;
  if (is_loop) {
    play->flags |= MODEL_ANIM_LOOP;
    return;
  }
  if (given < 1)
    return;
  if (vals[0] < 0) {
    iqe_emit(p, RULE_IQE_FRAMERATE_NEGATIVE, ln->no, args[0].col, NULL, "%g", vals[0]);
    play->framerate = 0;
    return;
  }
  play->framerate = vals[0];
}

/* "frame N" as exporters write it: N is the frame's position (in its animation or in the
 * whole file, from 0). Only a number that is neither is worth a note, once per animation. */
static void frame_number_check(struct iqe_parser *p, const struct iqe_line *ln,
                               const struct iqe_tok *arg)
{
  struct iqe_anim *a = &p->anims[p->num_anims - 1];
  uint64_t n = 0;
  uint32_t i;
  char where[96];
  if (p->frame_number_noted)
    return;
  for (i = 0; i < arg->len && arg->s[i] >= '0' && arg->s[i] <= '9' && n < UINT32_MAX; i++)
    n = n * 10 + (uint64_t)(arg->s[i] - '0');
  if (i == arg->len && arg->len > 0 && (n == a->num_frames || n == p->num_frames))
    return;
  p->frame_number_noted = 1;
  snprintf(where, sizeof where, "frame %u of animation %u (%u of the file)",
           (unsigned)a->num_frames, (unsigned)(p->num_anims - 1), (unsigned)p->num_frames);
  iqe_emit(p, RULE_IQE_FRAME_NUMBER, ln->no, arg->col, where, "%.*s",
           (int)(arg->len > 40 ? 40 : arg->len), arg->s);
}

void iqe_anim_frame(struct iqe_parser *p, const struct iqe_line *ln, const struct iqe_tok *args,
                    uint32_t nargs, const double *vals, uint32_t given)
{
  struct iqe_frame *f;
  (void)vals;
  (void)given;
  if (!p->in_animation || p->num_anims == 0) {
    iqe_emit(p, RULE_IQE_OUTSIDE_ANIMATION, ln->no, args[-1].col, NULL, "%s", "frame");
    return;
  }
  iqe_anim_close_frame(p, ln->no);
  if (p->num_frames >= p->counts[CMD_FRAME] + p->counts[CMD_ANIMATION])
    return;
  if (nargs > 0)
    frame_number_check(p, ln, args);
  f = &p->frames[p->num_frames++];
  f->first_pose = p->num_poses;
  if (p->frame_kept)
    p->frame_kept[p->num_frames - 1] = p->num_kept;
  f->num_poses = 0;
  f->line = ln->no;
  p->anims[p->num_anims - 1].num_frames++;
  p->frame_open = 1;
}

const char *iqe_anim_name(const struct iqe_parser *p, uint32_t a, char buf[32], size_t *len)
{
  const char *s;
  int n;
  if (p->anims[a].name != IQE_ANIM_UNNAMED) {
    iqe_name_set_name(p, &p->anim_set, p->anims[a].name, &s, len);
    return s;
  }
  n = snprintf(buf, 32, "animation%u", a);
  *len = n > 0 ? (size_t)n : 0;
  return buf;
}
