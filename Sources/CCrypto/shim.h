// OpenSSL's libcrypto, for SHA-256 alone: libcurl loads it already, so the
// hash costs no library of its own (swift-crypto compiled BoringSSL for it).
#include <openssl/evp.h>
