#include "dns/dns_tls_context.h"

#include <openssl/err.h>
#include <openssl/x509v3.h>

namespace nettools::dns {

SSL_CTX* NewTlsContext(const std::string& ca_file, Status* status) {
  *status = Status::kTlsUnavailable;
  SSL_CTX* ctx = SSL_CTX_new(TLS_client_method());
  if (ctx == nullptr) return nullptr;
  bool ok = SSL_CTX_set_min_proto_version(ctx, TLS1_2_VERSION) == 1 && SSL_CTX_set_default_verify_paths(ctx) == 1;
  if (ok && !ca_file.empty()) ok = SSL_CTX_load_verify_locations(ctx, ca_file.c_str(), nullptr) == 1;
  ERR_clear_error();
  if (!ok) {
    SSL_CTX_free(ctx);
    return nullptr;
  }
  SSL_CTX_set_verify(ctx, SSL_VERIFY_PEER, nullptr);
  *status = Status::kOk;
  return ctx;
}

SSL* NewTlsConnection(SSL_CTX* ctx, const std::string& name) {
  SSL* ssl = SSL_new(ctx);
  if (ssl == nullptr) return nullptr;
  BIO* in = BIO_new(BIO_s_mem());
  BIO* out = BIO_new(BIO_s_mem());
  X509_VERIFY_PARAM* param = SSL_get0_param(ssl);
  X509_VERIFY_PARAM_set_hostflags(param, X509_CHECK_FLAG_NO_PARTIAL_WILDCARDS);
  bool ok = in != nullptr && out != nullptr && X509_VERIFY_PARAM_set1_host(param, name.c_str(), name.size()) == 1 &&
            SSL_set_tlsext_host_name(ssl, name.c_str()) == 1;
  if (!ok) {
    BIO_free(in);
    BIO_free(out);
    SSL_free(ssl);
    ERR_clear_error();
    return nullptr;
  }
  SSL_set_bio(ssl, in, out);  // the connection owns both from here
  SSL_set_connect_state(ssl);
  return ssl;
}

Status TlsFailure(SSL* ssl, std::string* detail) {
  const long verify = SSL_get_verify_result(ssl);
  const unsigned long err = ERR_peek_error();
  ERR_clear_error();
  if (verify != X509_V_OK) {
    *detail = X509_verify_cert_error_string(verify);
    return Status::kTlsCertificateInvalid;
  }
  const char* reason = err == 0 ? nullptr : ERR_reason_error_string(err);
  *detail = reason == nullptr ? "the peer ended the handshake" : reason;
  return Status::kTlsHandshakeFailed;
}

}  // namespace nettools::dns
