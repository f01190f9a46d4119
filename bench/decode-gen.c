/* bench/decode-gen.c: writes the large animated GIFs bench/decode times, with
 * giflib's encoder. Deterministic: the same files on every run.
 *
 *   decode-gen DIR
 *
 * DIR/full.gif       480x270, 120 frames, every frame a whole new picture
 *                    (a moving plasma), disposal 1
 * DIR/optimized.gif  480x270, 150 frames, as gifsicle -O2 writes them: a first
 *                    full frame, then only the rectangle that changed, with
 *                    unchanged pixels transparent (three moving balls over a
 *                    still background), disposal 1
 * DIR/dispose.gif    480x270, 121 images: a background, then sprites that
 *                    restore what they covered (disposal 3), boxes that clear
 *                    to transparent (disposal 2), every 4th image interlaced,
 *                    every 5th with its own local color table
 */
#include <gif_lib.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define W 480
#define H 270
#define TRANSPARENT 255
/* frames of full.gif and sprites of dispose.gif (120; optimized.gif: 5/4 of it);
 * bench/decode --smoke makes 20, which still has every kind of image */
static int frames = 120;

static GifColorType palette[256];
static unsigned char canvas[H][W], previous[H][W];

static void fail(const char *what, int error) {
    fprintf(stderr, "decode-gen: %s: %s\n", what, GifErrorString(error));
    exit(1);
}

static GifFileType *open_gif(const char *dir, const char *name) {
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    int error = 0;
    GifFileType *gif = EGifOpenFileName(path, false, &error);
    if (gif == NULL) fail(path, error);
    EGifSetGifVersion(gif, true);
    ColorMapObject *map = GifMakeMapObject(256, palette);
    if (EGifPutScreenDesc(gif, W, H, 8, 0, map) != GIF_OK) fail("screen", gif->Error);
    GifFreeMapObject(map);
    unsigned char loop[3] = {1, 0, 0};
    EGifPutExtensionLeader(gif, APPLICATION_EXT_FUNC_CODE);
    EGifPutExtensionBlock(gif, 11, "NETSCAPE2.0");
    EGifPutExtensionBlock(gif, 3, loop);
    EGifPutExtensionTrailer(gif);
    return gif;
}

static void control(GifFileType *gif, int disposal, int delay, int transparent) {
    GraphicsControlBlock block = {disposal, false, delay, transparent};
    GifByteType bytes[4];
    size_t length = EGifGCBToExtension(&block, bytes);
    if (EGifPutExtension(gif, GRAPHICS_EXT_FUNC_CODE, (int)length, bytes) != GIF_OK) fail("control", gif->Error);
}

/* Writes canvas[top..top+h][left..left+w], interlaced when asked. */
static void image(GifFileType *gif, int left, int top, int w, int h, bool interlace, ColorMapObject *local) {
    if (EGifPutImageDesc(gif, left, top, w, h, interlace, local) != GIF_OK) fail("image", gif->Error);
    static const int start[4] = {0, 4, 2, 1}, step[4] = {8, 8, 4, 2};
    for (int pass = interlace ? 0 : 3; pass < 4; pass++) {
        for (int y = interlace ? start[pass] : 0; y < h; y += interlace ? step[pass] : 1) {
            if (EGifPutLine(gif, &canvas[top + y][left], w) != GIF_OK) fail("line", gif->Error);
        }
    }
}

static void close_gif(GifFileType *gif) {
    int error = 0;
    if (EGifCloseFile(gif, &error) != GIF_OK) fail("close", error);
}

static unsigned char plasma(int x, int y, int t) {
    double v = sin(x / 23.0 + t / 9.0) + sin(y / 17.0 - t / 13.0) + sin((x + y) / 31.0 + t / 7.0)
             + sin(sqrt((double)(x - 240) * (x - 240) + (double)(y - 135) * (y - 135)) / 19.0 - t / 5.0);
    int index = (int)((v + 4.0) * 31.8);
    return (unsigned char)(index < 0 ? 0 : index > 254 ? 254 : index);
}

static void draw_ball(int cx, int cy, int r, unsigned char color) {
    for (int y = cy - r; y <= cy + r; y++)
        for (int x = cx - r; x <= cx + r; x++)
            if (x >= 0 && x < W && y >= 0 && y < H && (x - cx) * (x - cx) + (y - cy) * (y - cy) <= r * r)
                canvas[y][x] = (unsigned char)(color + ((x + y) & 7));
}

static void full(const char *dir) {
    GifFileType *gif = open_gif(dir, "full.gif");
    for (int t = 0; t < frames; t++) {
        for (int y = 0; y < H; y++)
            for (int x = 0; x < W; x++) canvas[y][x] = plasma(x, y, t);
        control(gif, DISPOSE_DO_NOT, 4, NO_TRANSPARENT_COLOR);
        image(gif, 0, 0, W, H, false, NULL);
    }
    close_gif(gif);
}

static void balls(int t) {
    for (int y = 0; y < H; y++)
        for (int x = 0; x < W; x++) canvas[y][x] = (unsigned char)((x / 40 + y / 30) * 9 % 200);
    for (int b = 0; b < 3; b++) {
        int cx = (int)(240 + (170 - 40 * b) * sin(t / (11.0 + 3 * b) + b));
        int cy = (int)(135 + (90 - 20 * b) * cos(t / (7.0 + 2 * b) + 2 * b));
        draw_ball(cx, cy, 28 + 6 * b, (unsigned char)(200 + 16 * b));
    }
}

static void optimized(const char *dir) {
    GifFileType *gif = open_gif(dir, "optimized.gif");
    for (int t = 0; t < frames + frames / 4; t++) {
        balls(t);
        if (t == 0) {
            control(gif, DISPOSE_DO_NOT, 3, NO_TRANSPARENT_COLOR);
            image(gif, 0, 0, W, H, false, NULL);
        } else {
            int x0 = W, y0 = H, x1 = -1, y1 = -1;
            for (int y = 0; y < H; y++)
                for (int x = 0; x < W; x++)
                    if (canvas[y][x] != previous[y][x]) {
                        if (x < x0) x0 = x;
                        if (x > x1) x1 = x;
                        if (y < y0) y0 = y;
                        if (y > y1) y1 = y;
                    }
            if (x1 < 0) x0 = y0 = x1 = y1 = 0;
            unsigned char wanted[H][W];
            memcpy(wanted, canvas, sizeof canvas);
            for (int y = y0; y <= y1; y++)
                for (int x = x0; x <= x1; x++)
                    if (canvas[y][x] == previous[y][x]) canvas[y][x] = TRANSPARENT;
            control(gif, DISPOSE_DO_NOT, 3, TRANSPARENT);
            image(gif, x0, y0, x1 - x0 + 1, y1 - y0 + 1, false, NULL);
            memcpy(canvas, wanted, sizeof canvas);
        }
        memcpy(previous, canvas, sizeof canvas);
    }
    close_gif(gif);
}

static void dispose(const char *dir) {
    GifFileType *gif = open_gif(dir, "dispose.gif");
    for (int y = 0; y < H; y++)
        for (int x = 0; x < W; x++) canvas[y][x] = plasma(x, y, 0);
    control(gif, DISPOSE_DO_NOT, 5, NO_TRANSPARENT_COLOR);
    image(gif, 0, 0, W, H, false, NULL);
    GifColorType shifted[256];
    for (int i = 0; i < 256; i++) shifted[i] = palette[(i + 64) & 255];
    ColorMapObject *local = GifMakeMapObject(256, shifted);
    for (int t = 1; t <= frames; t++) {
        bool box = t % 10 == 0;
        int w = box ? 120 : 90, h = box ? 80 : 90;
        int left = (t * 37) % (W - w), top = (t * 23) % (H - h);
        for (int y = 0; y < h; y++)
            for (int x = 0; x < w; x++) {
                int dx = x - w / 2, dy = y - h / 2;
                bool inside = box || dx * dx + dy * dy <= (w / 2) * (w / 2);
                canvas[top + y][left + x] = inside ? (unsigned char)((x * 3 + y * 5 + t) % 250) : TRANSPARENT;
            }
        control(gif, box ? DISPOSE_BACKGROUND : DISPOSE_PREVIOUS, 4, TRANSPARENT);
        image(gif, left, top, w, h, t % 4 == 0, t % 5 == 0 ? local : NULL);
    }
    GifFreeMapObject(local);
    close_gif(gif);
}

int main(int argc, char **argv) {
    if (argc != 2 && argc != 3) {
        fprintf(stderr, "usage: decode-gen DIR [FRAMES]\n");
        return 64;
    }
    if (argc == 3 && (frames = atoi(argv[2])) < 10) {
        fprintf(stderr, "decode-gen: FRAMES must be 10 or more\n");
        return 64;
    }
    for (int i = 0; i < 256; i++) {
        palette[i].Red = (GifByteType)(127.5 + 127.5 * sin(i * 2 * M_PI / 256));
        palette[i].Green = (GifByteType)(127.5 + 127.5 * sin(i * 2 * M_PI / 256 + 2.1));
        palette[i].Blue = (GifByteType)(127.5 + 127.5 * sin(i * 2 * M_PI / 256 + 4.2));
    }
    full(argv[1]);
    optimized(argv[1]);
    dispose(argv[1]);
    return 0;
}
