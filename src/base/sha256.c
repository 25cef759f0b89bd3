/*
 * sha256: thin wrapper over OpenSSL EVP.
 */
#include "sha256.h"

#include <openssl/evp.h>
#include <stdio.h>
#include <stdlib.h>

#include "xalloc.h"

struct sha256 {
    EVP_MD_CTX *ctx;
};

struct sha256 *sha256_new(void)
{
    struct sha256 *h = xmalloc(sizeof *h);
    h->ctx = EVP_MD_CTX_new();
    if (!h->ctx || EVP_DigestInit_ex(h->ctx, EVP_sha256(), NULL) != 1)
        abort();
    return h;
}

void sha256_free(struct sha256 *h)
{
    if (!h)
        return;
    EVP_MD_CTX_free(h->ctx);
    free(h);
}

void sha256_update(struct sha256 *h, const void *data, size_t n)
{
    if (n)
        EVP_DigestUpdate(h->ctx, data, n);
}

void sha256_final_hex(struct sha256 *h, char hex[SHA256_HEX_SIZE])
{
    unsigned char md[32];
    unsigned int len = 0;
    EVP_DigestFinal_ex(h->ctx, md, &len);
    for (unsigned i = 0; i < 32; i++)
        snprintf(hex + 2 * i, 3, "%02x", md[i]);
    hex[64] = '\0';
    EVP_DigestInit_ex(h->ctx, EVP_sha256(), NULL);
}
