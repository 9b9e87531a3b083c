/*
** sha256.h — SHA-256 (FIPS 180-4), written for the cache key and the cache
** file checksum. A small self-contained implementation rather than a
** dependency: libcrypto or nettle would add a link-time library for 120 lines,
** and the key needs no speed beyond hashing a source text per compilation.
*/
#ifndef sha256_h
#define sha256_h

#include <stddef.h>
#include <stdint.h>

#define SHA256_LEN 32

typedef struct Sha256 {
  uint32_t h[8];          // chaining state
  uint64_t nbytes;        // message length so far
  unsigned char buf[64];  // a partial block
  size_t nbuf;            // bytes in buf
} Sha256;

void sha256_init(Sha256 *s);
void sha256_update(Sha256 *s, const void *data, size_t len);
void sha256_final(Sha256 *s, unsigned char out[SHA256_LEN]);
/* one call: out = SHA-256(data) */
void sha256(const void *data, size_t len, unsigned char out[SHA256_LEN]);
/* the 64 lowercase hex digits of a digest, NUL-terminated */
void sha256_hex(const unsigned char d[SHA256_LEN], char out[2 * SHA256_LEN + 1]);

#endif
