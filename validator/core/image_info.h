/* image_info.h - what a texture file's header says: its kind, dimensions and channels. */
#ifndef MDL_IMAGE_INFO_H
#define MDL_IMAGE_INFO_H

#include <stddef.h>

struct image_info {
  const char *kind;          /* "png", "jpeg", "tga", "bmp", "gif", "psd", "hdr", "pnm", "pic",
                              * "dds", "sgi", "tiff", "exr" */
  unsigned width, height;
  unsigned channels;         /* 0 when the header does not say (block-compressed DDS) */
};

/* Whether a name looks like an image file's (by its extension): a material name engines open
 * as a texture only when it does. */
int image_file_named(const char *name);

/* Parse the header at the start of data (size bytes, the whole file or its first part).
 * 0 with out filled, or -1 when no known image header parses. */
int image_info_read(const unsigned char *data, size_t size, struct image_info *out);

#endif
