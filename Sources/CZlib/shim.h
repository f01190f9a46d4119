// zlib, for the kitty graphics protocol's compressed frames (o=z) and the
// PNG frames of the iTerm2 protocol: libcurl loads it already.
#include <zlib.h>
