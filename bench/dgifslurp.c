/* bench/dgifslurp.c: the floor of bench/decode, giflib's own decoding.
 *
 *   dgifslurp REPEAT FILE...
 *
 * Opens every FILE REPEAT times with DGifOpenFileName and reads it whole with
 * DGifSlurp (LZW decoding of every image into its own raster, no compositing),
 * then prints one line: elapsed milliseconds, images read, files giflib
 * refused. DGifSlurp refuses some valid files (no image at all, LZW code size
 * above 8); those still count their time.
 */
#include <gif_lib.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

int main(int argc, char **argv) {
    if (argc < 3) {
        fprintf(stderr, "usage: dgifslurp REPEAT FILE...\n");
        return 64;
    }
    int repeat = atoi(argv[1]);
    long images = 0;
    int refused = 0;
    struct timespec start, end;
    clock_gettime(CLOCK_MONOTONIC, &start);
    for (int round = 0; round < repeat; round++) {
        for (int i = 2; i < argc; i++) {
            int error = 0;
            GifFileType *gif = DGifOpenFileName(argv[i], &error);
            if (gif == NULL) {
                if (round == 0) refused++;
                continue;
            }
            if (DGifSlurp(gif) != GIF_OK && round == 0) refused++;
            images += gif->ImageCount;
            DGifCloseFile(gif, &error);
        }
    }
    clock_gettime(CLOCK_MONOTONIC, &end);
    double ms = (end.tv_sec - start.tv_sec) * 1e3 + (end.tv_nsec - start.tv_nsec) / 1e6;
    printf("%.3f %ld %d\n", ms, images, refused);
    return 0;
}
