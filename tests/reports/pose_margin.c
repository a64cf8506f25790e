/* pose_margin.c - for each animated model given, how close pose decoding comes to its
 * tolerance: decode (frames in double precision) -> write as IQM, quantized the way the
 * reference compiler does -> decode again, then per channel (Tx..Sz) the worst |error| / bound,
 * the bound being the one the conformance runner applies (pose.h quant_bound). One JSON object
 * per line on stdout; a file without an animation strip is skipped. Feeds reports/index.html.
 * Exit 1 when a file cannot be decoded or written (the report must not hide that). */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "input.h"
#include "iqm_write.h"
#include "pipeline.h"
#include "pose.h"

static const char *const channel_names[TRS_CHANNELS] = {"Tx", "Ty", "Tz", "Qx", "Qy", "Qz", "Qw",
                                                          "Sx", "Sy", "Sz"};

struct channel_worst {
  double ratio, error, bound;
};

static void json_text(const char *s)
{
  putchar('"');
  for (; *s; s++) {
    if (*s == '"' || *s == '\\')
      printf("\\%c", *s);
    else if ((unsigned char)*s < 0x20)
      printf("\\u%04x", (unsigned char)*s);
    else
      putchar(*s);
  }
  putchar('"');
}

/* Worst error / bound per channel between source a and its quantized copy b. */
static void channel_margins(const struct model *a, const struct model *b,
                            struct channel_worst w[TRS_CHANNELS])
{
  memset(w, 0, TRS_CHANNELS * sizeof *w);
  for (uint32_t f = 0; f < a->num_frames; f++) {
    for (uint32_t p = 0; p < a->num_poses; p++) {
      const struct trs *x = model_frame(a, f, p), *y = model_frame(b, f, p);
      const struct model_channels *ch = &b->channels[p];
      for (unsigned c = 0; c < TRS_CHANNELS; c++) {
        double d = fabs(trs_channel(x, c) - trs_channel(y, c));
        double bound = quant_bound(ch->offset[c], (ch->mask >> c) & 1 ? ch->scale[c] : 0);
        double ratio = isnan(d) ? INFINITY : d / bound;
        if (ratio > w[c].ratio || w[c].bound == 0) {
          if (ratio > w[c].ratio)
            w[c].ratio = ratio;
          w[c].error = d;
          w[c].bound = bound;
        }
      }
    }
  }
}

static int margin_file(const char *path)
{
  struct mdl_input in;
  struct pipeline_run a, b;
  struct byte_buf out;
  struct write_opts wo = {0};
  struct channel_worst w[TRS_CHANNELS];
  mdl_options o;
  int rc = 0;

  if (input_open(path, &in, 0) != 0) {
    fprintf(stderr, "pose_margin: cannot read %s\n", path);
    return 1;
  }
  mdl_options_init(&o);
  if (pipeline_decode(in.data, in.size, path, &o, 1, &a) != MDL_OK || !a.decoded) {
    fprintf(stderr, "pose_margin: %s does not decode\n", path);
    pipeline_release(&a);
    input_close(&in);
    return 1;
  }
  if (a.model.num_frames == 0 || a.model.num_poses == 0 || !a.model.frames) {
    pipeline_release(&a); /* not animated: nothing to chart */
    input_close(&in);
    return 0;
  }
  buf_init(&out);
  if (iqm_write_ex(&a.model, &wo, IQM_WRITE_REQUANTIZE, &out) < 0) {
    fprintf(stderr, "pose_margin: %s: the IQM writer failed: %s\n", path, out.error);
    rc = 1;
  } else {
    o.assume_format = "iqm";
    if (pipeline_decode(out.data, out.size, "copy.iqm", &o, 1, &b) != MDL_OK || !b.decoded ||
        !b.model.channels || b.model.num_frames != a.model.num_frames ||
        b.model.num_poses != a.model.num_poses) {
      fprintf(stderr, "pose_margin: %s: the written copy does not decode to the same strip\n", path);
      rc = 1;
    } else {
      channel_margins(&a.model, &b.model, w);
      printf("{\"file\": ");
      json_text(path);
      printf(", \"format\": ");
      json_text(a.format ? a.format->name : "unknown");
      printf(", \"frames\": %u, \"poses\": %u, \"channels\": [", a.model.num_frames,
             a.model.num_poses);
      for (unsigned c = 0; c < TRS_CHANNELS; c++)
        printf("%s{\"channel\": \"%s\", \"ratio\": %.9g, \"error\": %.9g, \"bound\": %.9g}",
               c ? ", " : "", channel_names[c], isfinite(w[c].ratio) ? w[c].ratio : 1e308,
               w[c].error, w[c].bound);
      printf("]}\n");
    }
    pipeline_release(&b);
  }
  buf_free(&out);
  pipeline_release(&a);
  input_close(&in);
  return rc;
}

int main(int argc, char **argv)
{
  int rc = 0;
  if (argc < 2) {
    fprintf(stderr, "usage: pose_margin MODEL...\n");
    return 2;
  }
  for (int i = 1; i < argc; i++)
    rc |= margin_file(argv[i]);
  return rc;
}
