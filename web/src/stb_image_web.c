/* stb_image_web.c - stb_image's implementation for the WebAssembly build, which cannot link
 * Debian's libstb: header parsing only (image_info.c calls stbi_info_from_memory). */
#define STB_IMAGE_IMPLEMENTATION
#define STBI_NO_STDIO
#define STBI_NO_LINEAR
#include <stb_image.h>
