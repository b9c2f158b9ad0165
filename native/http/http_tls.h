// The TLS side of the http check: one client context per engine, trusting exactly the anchors the
// TypeScript side hands over (Node's root certificates and NETTOOLS_TLS_CA_FILE, the tls check's store),
// and what a handshake shows. OpenSSL is Node's own, as for DoT (native/dns/dns_tls_context.h).
//
// Verification never ends a handshake here (SSL_VERIFY_NONE): the chain and the name are still checked,
// and the result is read afterwards, so that a certificate that does not verify is reported with its
// chain rather than hidden behind a closed connection. Whether the request is then sent is the caller's.
#pragma once

#include <openssl/ssl.h>

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "common/ip_bytes.h"

namespace nettools::http {

// A client context (TLS 1.2 at least, no session cache or tickets kept: every check makes a full
// handshake) whose store holds the certificates of `pem`. Null when none could be read from it.
SSL_CTX* NewCheckContext(const std::string& pem);

// A connection over `bio` (taken: freed with the connection, or here on failure) that asks for an OCSP
// staple and checks the certificate against `server_name` (sent as SNI), or, when it is empty, against
// `address` (no SNI: an IP literal). Null on failure.
SSL* NewCheckConnection(SSL_CTX* ctx, BIO* bio, const std::string& server_name, const IpBytes& address);

struct TlsFacts {
  long verify_result = 0;    // X509_V_OK or the first error the verifier met
  std::string verify_error;  // Node's name for it (CERT_HAS_EXPIRED, ERR_TLS_CERT_ALTNAME_INVALID, ...)
  std::string protocol;      // TLSv1.3
  std::string cipher;        // the IANA name (TLS_AES_256_GCM_SHA384)
  bool ocsp_stapled = false;
  // DER, leaf first: the chain the verifier built up to its anchor when it verified, else as sent.
  std::vector<std::vector<uint8_t>> chain;
};

// What a completed handshake of `ssl` shows.
TlsFacts FactsOf(SSL* ssl);

// Node's name for a verification result (CERT_HAS_EXPIRED); a name mismatch is Node's
// ERR_TLS_CERT_ALTNAME_INVALID, as its checkServerIdentity says it.
std::string VerifyErrorName(long result);

// The code of a failed handshake or TLS read, as Node names it: ERR_SSL_<OpenSSL's reason> for a TLS
// error, the errno's name for a socket one, ECONNRESET for a close. Clears OpenSSL's error queue, which
// Node's own TLS shares.
std::string TlsErrorCode(int ssl_error, int saved_errno);

}  // namespace nettools::http
