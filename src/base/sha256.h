/*
 * sha256: SHA-256 digests (OpenSSL's libcrypto, which uses the CPU's SHA
 * extensions where present).
 */
#ifndef WHEELARCH_SHA256_H
#define WHEELARCH_SHA256_H

#include <stddef.h>
#include <stdint.h>

#define SHA256_HEX_SIZE 65

struct sha256;

/* Caller frees with sha256_free. */
struct sha256 *sha256_new(void);
void sha256_free(struct sha256 *h);
void sha256_update(struct sha256 *h, const void *data, size_t n);
/* Writes 64 lowercase hex digits and a NUL into hex; the digest is reset. */
void sha256_final_hex(struct sha256 *h, char hex[SHA256_HEX_SIZE]);

#endif
