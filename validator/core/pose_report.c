/* pose_report.c - the poses of one file: whether they may be shown, and their JSON document
 * (one writer for the CLI's `poses -f json` and the library's mdl_poses_*_json). */
#include <string.h>

#include "json_write.h"
#include "pose.h"
#include "pose_report.h"

mdl_status poses_decode(const struct mdl_input *in, const char *name, const mdl_options *o,
                        const struct report *rep, struct report_file *f, struct pipeline_run *run)
{
  mdl_options opts = *o;
  mdl_status st;
  memset(run, 0, sizeof *run); /* released by the caller whatever this returns */
  if (!f)
    return MDL_ENOMEM; /* report_add_file failed */
  opts.on_diag = report_collect;
  opts.user = f;
  /* poses read no geometry, unless a --target check reads it in the model; what they build
   * is held to --max-memory as validation's structures are (MDL-MEM-002, MDL_EIO) */
  st = pipeline_decode_input(in, name, &opts,
                             PIPELINE_FRAMES | PIPELINE_FRAMES_LAZY | PIPELINE_BOUNDED |
                             (opts.targets ? 0 : PIPELINE_SKELETON), NULL, run);
  if (st != MDL_OK && st != MDL_EIO)
    return st;
  report_set_result(f, &run->result);
  if (f->out_of_memory)
    return MDL_ENOMEM; /* a diagnostic was lost: neither the poses nor the findings are whole */
  if (st == MDL_EIO)
    return st;
  return !run->format || !run->decoded || report_file_invalid(rep, f) ? MDL_EDECODE : MDL_OK;
}

static void json_vec(struct json_writer *w, const char *key, const double *v, int n)
{
  json_key(w, key);
  json_array_begin(w);
  for (int i = 0; i < n; i++)
    json_double(w, v[i]);
  json_array_end(w);
}

static void json_trs(struct json_writer *w, const struct trs *p)
{
  double q[4];
  memcpy(q, p->r, sizeof q);
  quat_normalize(q);
  json_vec(w, "t", p->t, 3);
  json_vec(w, "r", q, 4);
  json_vec(w, "s", p->s, 3);
}

/* 0, or -1 when a pose of the frame could not be computed */
static int json_frame(struct json_writer *w, const struct pipeline_run *run, uint32_t f, uint64_t g)
{
  const struct model *m = &run->model;
  int (*pose_matrix)(const struct model *, uint32_t, uint32_t, double[16]) =
    run->format ? run->format->pose_matrix : NULL;
  json_object_begin(w);
  json_kv_uint(w, "frame", f);
  json_kv_uint(w, "global", g);
  if (m->frame_times)
    json_kv_double(w, "time", m->frame_times[g]);
  json_key(w, "joints");
  json_array_begin(w);
  for (uint32_t p = 0; p < m->num_poses; p++) {
    double mat[16];
    struct trs buf;
    const struct trs *pose = model_frame_get(m, (uint32_t)g, p, &buf);
    if (!pose)
      return -1;
    json_object_begin(w);
    json_kv_uint(w, "joint", p);
    json_trs(w, pose);
    if (pose_matrix && pose_matrix(m, (uint32_t)g, p, mat) == 0)
      json_vec(w, "matrix", mat, 16);
    json_object_end(w);
  }
  json_array_end(w);
  json_object_end(w);
  return 0;
}

static int json_anim(struct json_writer *w, const struct pipeline_run *run, const struct model_anim *an)
{
  const struct model *m = &run->model;
  json_object_begin(w);
  json_kv_string(w, "name", an->name ? an->name : "");
  json_kv_double(w, "framerate", an->framerate);
  json_kv_bool(w, "loop", (an->flags & MODEL_ANIM_LOOP) != 0);
  json_kv_uint(w, "first_frame", an->first_frame);
  json_kv_uint(w, "num_frames", an->num_frames);
  if (model_has_frames(m)) {
    json_key(w, "frames");
    json_array_begin(w);
    for (uint32_t f = 0; f < an->num_frames; f++) {
      uint64_t g = (uint64_t)an->first_frame + f;
      if (g >= m->num_frames)
        break;
      if (json_frame(w, run, f, g) < 0)
        return -1;
    }
    json_array_end(w);
  }
  json_object_end(w);
  return 0;
}

int poses_write_joints(struct json_writer *w, const struct model *m)
{
  struct model_joint_cursor c;
  json_key(w, "joints");
  json_array_begin(w);
  model_joints_begin(&c);
  for (uint32_t j = 0; j < m->num_joints; j++) {
    if (model_joints_next(m, &c) <= 0)
      return -1;
    json_object_begin(w);
    json_kv_uint(w, "index", j);
    json_kv_string(w, "name", c.joint.name ? c.joint.name : "");
    json_kv_int(w, "parent", c.joint.parent);
    json_trs(w, c.rest);
    json_object_end(w);
  }
  json_array_end(w);
  return 0;
}

int poses_write_json(FILE *out, const char *path, const struct pipeline_run *run)
{
  const struct model *m = &run->model;
  struct json_writer w;
  json_init(&w, out, 1);
  json_object_begin(&w);
  json_kv_string(&w, "file", path);
  json_kv_string(&w, "format", run->result.format);
  json_kv_string(&w, "version", run->result.version);
  if (poses_write_joints(&w, m) < 0)
    return -1; /* a joint the model counts could not be given: no document */
  json_kv_uint(&w, "num_poses", m->num_poses);
  json_kv_uint(&w, "num_frames", m->num_frames);
  /* what a frame is relative to: the parent joint (IQM's meaning) or the joint's base pose
   * (QMSH keyframes, printed as stored; convert and compare make them parent-relative) */
  json_kv_string(&w, "frame_space", m->frame_space == MODEL_FRAMES_BIND ? "base-pose" : "parent");
  json_key(&w, "anims");
  json_array_begin(&w);
  for (uint32_t a = 0; a < m->num_anims; a++) {
    struct model_anim buf;
    const struct model_anim *an = model_anim_get(m, a, &buf);
    if (!an || json_anim(&w, run, an) < 0)
      return -1; /* an animation or a frame the model counts could not be given: no document */
  }
  json_array_end(&w);
  json_object_end(&w);
  return json_end(&w);
}
