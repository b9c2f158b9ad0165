// The TLS side of DoT (RFC 7858): one client context per engine, the checks each connection makes, and
// what a failed handshake is called. OpenSSL is Node's own: its headers ship with Node's, and the node
// binary exports its symbols to addons, so the addon links against nothing of its own.
#pragma once

#include <openssl/ssl.h>

#include <string>

#include "dns/dns_status.h"

namespace nettools::dns {

// A client context: TLS 1.2 at least, peers verified against the system's trust anchors plus the PEM
// file `ca_file` when it is not empty. Null (with `status`) when they cannot be loaded.
SSL_CTX* NewTlsContext(const std::string& ca_file, Status* status);

// A connection that will accept only a certificate valid for `name` (the configured resolver name),
// and sends `name` as SNI. Reads and writes go through memory buffers: the engine moves the bytes on
// its own non-blocking socket. Null when OpenSSL could not make it.
SSL* NewTlsConnection(SSL_CTX* ctx, const std::string& name);

// Why the handshake of `ssl` failed: the certificate (with the verifier's words in `detail`), or the
// handshake itself (with OpenSSL's reason). Clears OpenSSL's error queue, which Node's own TLS shares.
Status TlsFailure(SSL* ssl, std::string* detail);

}  // namespace nettools::dns
