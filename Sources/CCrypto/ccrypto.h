// libcrypto (OpenSSL 3) for Tessera: EVP ciphers and digests, HMAC, RAND_bytes, CRYPTO_memcmp, the error queue.
// Function-like macros Swift cannot see are wrapped here.
#ifndef TESSERA_CCRYPTO_H
#define TESSERA_CCRYPTO_H
#include <openssl/evp.h>
#include <openssl/err.h>
#include <openssl/crypto.h>
#include <openssl/hmac.h>
#include <openssl/rand.h>
static inline void ccrypto_free(void *p) { OPENSSL_free(p); }
#endif
