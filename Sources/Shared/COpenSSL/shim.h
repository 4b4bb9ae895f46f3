// OpenSSL 3 (libssl-dev) for the engine's TLS on Linux, and functions in place of the macros Swift cannot call.
// Apple platforms do not build this module (Package.swift depends on it on Linux only).
#ifdef __linux__
#include <openssl/bio.h>
#include <openssl/bn.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/hmac.h>
#include <openssl/pem.h>
#include <openssl/pkcs12.h>
#include <openssl/rand.h>
#include <openssl/ssl.h>
#include <openssl/x509.h>
#include <openssl/x509v3.h>

/// SSL_CTX_set_min_proto_version and SSL_CTX_set_max_proto_version (ssl.h: macros over SSL_CTX_ctrl).
static inline int copenssl_set_versions(SSL_CTX *context, int lowest, int highest) {
    return (int)SSL_CTX_set_min_proto_version(context, lowest) && (int)SSL_CTX_set_max_proto_version(context, highest);
}

/// SSL_CTX_set_session_cache_mode (ssl.h: a macro over SSL_CTX_ctrl).
static inline void copenssl_set_session_cache_mode(SSL_CTX *context, long mode) {
    SSL_CTX_set_session_cache_mode(context, mode);
}

/// SSL_OP_NO_TICKET and SSL_OP_NO_RENEGOTIATION (ssl.h: SSL_OP_BIT macros): no session tickets to issue, no
/// renegotiation to allow.
static inline void copenssl_no_tickets_or_renegotiation(SSL_CTX *context) {
    SSL_CTX_set_options(context, SSL_OP_NO_TICKET | SSL_OP_NO_RENEGOTIATION);
}

/// SSL_set_tlsext_host_name (ssl.h: a macro over SSL_ctrl): the server name a client asks for (SNI).
static inline int copenssl_set_server_name(SSL *ssl, const char *name) {
    return (int)SSL_set_tlsext_host_name(ssl, name);
}

/// BIO_get_mem_data (bio.h: a macro over BIO_ctrl): the bytes a memory BIO holds.
static inline long copenssl_mem_data(BIO *bio, char **bytes) {
    return BIO_get_mem_data(bio, bytes);
}

/// BIO_pending (bio.h: a macro over BIO_ctrl_pending's BIO_ctrl): bytes waiting to be read from `bio`.
static inline size_t copenssl_pending(BIO *bio) {
    return BIO_ctrl_pending(bio);
}

/// BIO_set_mem_eof_return (bio.h: a macro over BIO_ctrl): what reading an empty memory BIO returns; -1 means
/// "retry later" (more ciphertext will come), not end of stream.
static inline void copenssl_mem_eof_retries(BIO *bio) {
    BIO_set_mem_eof_return(bio, -1);
}

/// OPENSSL_free (crypto.h: a macro that adds the caller's file and line).
static inline void copenssl_free(void *pointer) {
    OPENSSL_free(pointer);
}

/// sk_X509_num and sk_X509_pop_free (safestack.h: made by macros per type), for the certificates PKCS12_parse gives.
static inline int copenssl_certificate_count(STACK_OF(X509) *certificates) {
    return certificates ? sk_X509_num(certificates) : 0;
}

static inline void copenssl_free_certificates(STACK_OF(X509) *certificates) {
    sk_X509_pop_free(certificates, X509_free);
}
#endif
