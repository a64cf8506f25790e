/* iqe_commands.c - the IQE command set as data: name, argument kind, value counts and the
 * spec's defaults for unspecified values, and the handler of each (iqe.txt, every section). */
#include <math.h>
#include <string.h>

#include "iqe.h"

#define U IQE_UNBOUNDED

const struct iqe_command iqe_commands[CMD_COUNT] = {
  /* Vertex attributes: spec defaults (vp W = 1, vc A = 1, everything else 0) */
  {"vp", CMD_VP, ARGS_REALS, 0, 4, {0, 0, 0, 1}, iqe_vertex_attr},
  {"vt", CMD_VT, ARGS_REALS, 0, 2, {0, 0}, iqe_vertex_attr},
  {"vn", CMD_VN, ARGS_REALS, 3, 3, {0, 0, 0}, iqe_vertex_attr},
  {"vx", CMD_VX, ARGS_REALS, 3, 6, {0, 0, 0, 0, 0, 0}, iqe_vertex_attr},
  {"vb", CMD_VB, ARGS_REALS, 0, U, {0}, iqe_vertex_blend},
  {"vc", CMD_VC, ARGS_REALS, 0, 4, {0, 0, 0, 1}, iqe_vertex_attr},
  {"v0", CMD_V0, ARGS_REALS, 0, 4, {0}, iqe_vertex_attr},
  {"v1", CMD_V1, ARGS_REALS, 0, 4, {0}, iqe_vertex_attr},
  {"v2", CMD_V2, ARGS_REALS, 0, 4, {0}, iqe_vertex_attr},
  {"v3", CMD_V3, ARGS_REALS, 0, 4, {0}, iqe_vertex_attr},
  {"v4", CMD_V4, ARGS_REALS, 0, 4, {0}, iqe_vertex_attr},
  {"v5", CMD_V5, ARGS_REALS, 0, 4, {0}, iqe_vertex_attr},
  {"v6", CMD_V6, ARGS_REALS, 0, 4, {0}, iqe_vertex_attr},
  {"v7", CMD_V7, ARGS_REALS, 0, 4, {0}, iqe_vertex_attr},
  {"v8", CMD_V8, ARGS_REALS, 0, 4, {0}, iqe_vertex_attr},
  {"v9", CMD_V9, ARGS_REALS, 0, 4, {0}, iqe_vertex_attr},
  {"vs", CMD_VS, ARGS_INTS, 1, 1, {0}, iqe_vertex_smooth},
  {"vertexarray", CMD_VERTEXARRAY, ARGS_NAME, 0, 4, {0}, iqe_vertex_array},
  /* Meshes and triangles */
  {"mesh", CMD_MESH, ARGS_NAME, 0, 1, {0}, iqe_face_mesh},
  {"material", CMD_MATERIAL, ARGS_NAME, 0, 1, {0}, iqe_face_material},
  {"fa", CMD_FA, ARGS_INTS, 0, U, {0}, iqe_face_add},
  {"fm", CMD_FM, ARGS_INTS, 0, U, {0}, iqe_face_add},
  {"fs", CMD_FS, ARGS_INTS, 0, U, {0}, iqe_face_smooth_flags},
  /* Smoothing */
  {"smoothuv", CMD_SMOOTHUV, ARGS_INTS, 0, 1, {0}, iqe_face_smoothing},
  {"smoothgroup", CMD_SMOOTHGROUP, ARGS_INTS, 1, 1, {-1}, iqe_face_smoothing},
  {"smoothangle", CMD_SMOOTHANGLE, ARGS_REALS, 1, 1, {180}, iqe_face_smoothing},
  /* Poses: Qw unspecified is generated (marked NaN here), scale defaults to 1 */
  {"pq", CMD_PQ, ARGS_REALS, 6, 10, {0, 0, 0, 0, 0, 0, NAN, 1, 1, 1}, iqe_skeleton_pose},
  {"pm", CMD_PM, ARGS_REALS, 12, 15, {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1}, iqe_skeleton_pose},
  {"pa", CMD_PA, ARGS_REALS, 6, 9, {0, 0, 0, 0, 0, 0, 1, 1, 1}, iqe_skeleton_pose},
  /* Skeleton and animations */
  {"joint", CMD_JOINT, ARGS_NAME, 0, 2, {0}, iqe_skeleton_joint},
  {"animation", CMD_ANIMATION, ARGS_NAME, 0, 1, {0}, iqe_anim_begin},
  {"loop", CMD_LOOP, ARGS_NONE, 0, 0, {0}, iqe_anim_setting},
  {"framerate", CMD_FRAMERATE, ARGS_REALS, 1, 1, {0}, iqe_anim_setting},
  /* "frame N": exporters number their frames; the spec defines no value and readers ignore it */
  {"frame", CMD_FRAME, ARGS_NONE, 0, 1, {0}, iqe_anim_frame},
  /* Comment section: the rest of the file, handled by the driver */
  {"comment", CMD_COMMENT, ARGS_TEXT, 0, 0, {0}, NULL},
};

const struct iqe_command *iqe_command_find(const char *s, size_t len)
{
  /* the two-letter commands (vertices, faces, poses) are nearly every line of a file: decide
   * them by their characters; no other command has two letters */
  if (len == 2) {
    switch (s[0]) {
    case 'v':
      switch (s[1]) {
      case 'p': return &iqe_commands[CMD_VP];
      case 't': return &iqe_commands[CMD_VT];
      case 'n': return &iqe_commands[CMD_VN];
      case 'x': return &iqe_commands[CMD_VX];
      case 'b': return &iqe_commands[CMD_VB];
      case 'c': return &iqe_commands[CMD_VC];
      case 's': return &iqe_commands[CMD_VS];
      default:
        return s[1] >= '0' && s[1] <= '9' ? &iqe_commands[CMD_V0 + (s[1] - '0')] : NULL;
      }
    case 'f':
      return s[1] == 'a' ? &iqe_commands[CMD_FA] : s[1] == 'm' ? &iqe_commands[CMD_FM]
           : s[1] == 's' ? &iqe_commands[CMD_FS] : NULL;
    case 'p':
      return s[1] == 'q' ? &iqe_commands[CMD_PQ] : s[1] == 'm' ? &iqe_commands[CMD_PM]
           : s[1] == 'a' ? &iqe_commands[CMD_PA] : NULL;
    default:
      return NULL;
    }
  }
  for (size_t i = 0; i < CMD_COUNT; i++)
    if (len && iqe_commands[i].name[0] == s[0] && strlen(iqe_commands[i].name) == len &&
        !memcmp(iqe_commands[i].name, s, len))
      return &iqe_commands[i];
  return NULL;
}
