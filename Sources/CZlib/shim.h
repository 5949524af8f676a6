#ifndef PERIMETER_CZLIB_SHIM_H
#define PERIMETER_CZLIB_SHIM_H
#include <zlib.h>

/// inflateInit2() is a macro; Swift calls this instead. `window_bits` 15 + 16 reads gzip (RFC 1952) only.
static inline int perimeter_inflate_init(z_streamp stream, int window_bits) {
    return inflateInit2(stream, window_bits);
}
#endif
