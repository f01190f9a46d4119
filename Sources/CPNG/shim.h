#include <png.h>

// libpng's simplified API is configured through macros Swift cannot import
// (PNG_IMAGE_VERSION, PNG_FORMAT_RGBA): one typed function each.

/// A png_image ready for png_image_begin_read_*: zeroed, with libpng's version.
static inline png_image cpng_image(void) {
    png_image image = {0};
    image.version = PNG_IMAGE_VERSION;
    return image;
}

/// 8-bit RGBA, not premultiplied, the GIF engine's pixel format.
static inline png_uint_32 cpng_format_rgba(void) { return PNG_FORMAT_RGBA; }
