#include "http/http_tls.h"

#include <openssl/err.h>
#include <openssl/pem.h>
#include <openssl/x509v3.h>

#include <cctype>
#include <cstring>

#include "common/errno_name.h"

namespace nettools::http {

namespace {

struct VerifyName {
  long result;
  const char* name;
};

// Node's names for the verifier's results (its crypto code strips X509_V_ERR_); the ones a public
// server's chain can produce.
constexpr VerifyName kVerifyNames[] = {
    {X509_V_ERR_UNABLE_TO_GET_ISSUER_CERT, "UNABLE_TO_GET_ISSUER_CERT"},
    {X509_V_ERR_UNABLE_TO_GET_CRL, "UNABLE_TO_GET_CRL"},
    {X509_V_ERR_UNABLE_TO_DECRYPT_CERT_SIGNATURE, "UNABLE_TO_DECRYPT_CERT_SIGNATURE"},
    {X509_V_ERR_UNABLE_TO_DECODE_ISSUER_PUBLIC_KEY, "UNABLE_TO_DECODE_ISSUER_PUBLIC_KEY"},
    {X509_V_ERR_CERT_SIGNATURE_FAILURE, "CERT_SIGNATURE_FAILURE"},
    {X509_V_ERR_CERT_NOT_YET_VALID, "CERT_NOT_YET_VALID"},
    {X509_V_ERR_CERT_HAS_EXPIRED, "CERT_HAS_EXPIRED"},
    {X509_V_ERR_ERROR_IN_CERT_NOT_BEFORE_FIELD, "ERROR_IN_CERT_NOT_BEFORE_FIELD"},
    {X509_V_ERR_ERROR_IN_CERT_NOT_AFTER_FIELD, "ERROR_IN_CERT_NOT_AFTER_FIELD"},
    {X509_V_ERR_OUT_OF_MEM, "OUT_OF_MEM"},
    {X509_V_ERR_DEPTH_ZERO_SELF_SIGNED_CERT, "DEPTH_ZERO_SELF_SIGNED_CERT"},
    {X509_V_ERR_SELF_SIGNED_CERT_IN_CHAIN, "SELF_SIGNED_CERT_IN_CHAIN"},
    {X509_V_ERR_UNABLE_TO_GET_ISSUER_CERT_LOCALLY, "UNABLE_TO_GET_ISSUER_CERT_LOCALLY"},
    {X509_V_ERR_UNABLE_TO_VERIFY_LEAF_SIGNATURE, "UNABLE_TO_VERIFY_LEAF_SIGNATURE"},
    {X509_V_ERR_CERT_CHAIN_TOO_LONG, "CERT_CHAIN_TOO_LONG"},
    {X509_V_ERR_CERT_REVOKED, "CERT_REVOKED"},
    {X509_V_ERR_INVALID_CA, "INVALID_CA"},
    {X509_V_ERR_PATH_LENGTH_EXCEEDED, "PATH_LENGTH_EXCEEDED"},
    {X509_V_ERR_INVALID_PURPOSE, "INVALID_PURPOSE"},
    {X509_V_ERR_CERT_UNTRUSTED, "CERT_UNTRUSTED"},
    {X509_V_ERR_CERT_REJECTED, "CERT_REJECTED"},
    {X509_V_ERR_HOSTNAME_MISMATCH, "ERR_TLS_CERT_ALTNAME_INVALID"},
    {X509_V_ERR_IP_ADDRESS_MISMATCH, "ERR_TLS_CERT_ALTNAME_INVALID"},
};

std::vector<uint8_t> Der(X509* cert) {
  const int size = i2d_X509(cert, nullptr);
  if (size <= 0) return {};
  std::vector<uint8_t> out(static_cast<size_t>(size));
  unsigned char* p = out.data();
  if (i2d_X509(cert, &p) != size) return {};
  return out;
}

std::vector<std::vector<uint8_t>> ChainOf(STACK_OF(X509) * chain) {
  std::vector<std::vector<uint8_t>> out;
  const int n = chain == nullptr ? 0 : sk_X509_num(chain);
  for (int i = 0; i < n; ++i) {
    std::vector<uint8_t> der = Der(sk_X509_value(chain, i));
    if (!der.empty()) out.push_back(std::move(der));
  }
  return out;
}

}  // namespace

SSL_CTX* NewCheckContext(const std::string& pem) {
  SSL_CTX* ctx = SSL_CTX_new(TLS_client_method());
  if (ctx == nullptr) return nullptr;
  X509_STORE* store = SSL_CTX_get_cert_store(ctx);
  BIO* bio = BIO_new_mem_buf(pem.data(), static_cast<int>(pem.size()));
  int added = 0;
  while (bio != nullptr) {
    X509* cert = PEM_read_bio_X509(bio, nullptr, nullptr, nullptr);
    if (cert == nullptr) break;
    if (X509_STORE_add_cert(store, cert) == 1) ++added;
    X509_free(cert);
  }
  BIO_free(bio);
  ERR_clear_error();  // the read that ends the loop leaves "no start line"
  const bool ok = added > 0 && SSL_CTX_set_min_proto_version(ctx, TLS1_2_VERSION) == 1;
  if (!ok) {
    SSL_CTX_free(ctx);
    return nullptr;
  }
  SSL_CTX_set_verify(ctx, SSL_VERIFY_NONE, nullptr);
  SSL_CTX_set_session_cache_mode(ctx, SSL_SESS_CACHE_OFF);
  // A server that closes without close_notify after a Connection: close answer is common; its body's
  // end is the HTTP framing's to judge, not TLS's.
  SSL_CTX_set_options(ctx, SSL_OP_NO_TICKET | SSL_OP_IGNORE_UNEXPECTED_EOF);
  return ctx;
}

SSL* NewCheckConnection(SSL_CTX* ctx, BIO* bio, const std::string& server_name, const IpBytes& address) {
  SSL* ssl = bio == nullptr ? nullptr : SSL_new(ctx);
  if (ssl == nullptr) {
    BIO_free(bio);
    return nullptr;
  }
  SSL_set_bio(ssl, bio, bio);  // one BIO both ways: the connection holds its one reference
  X509_VERIFY_PARAM* param = SSL_get0_param(ssl);
  X509_VERIFY_PARAM_set_hostflags(param, X509_CHECK_FLAG_NO_PARTIAL_WILDCARDS);
  bool ok = SSL_set_tlsext_status_type(ssl, TLSEXT_STATUSTYPE_ocsp) == 1;
  if (ok && !server_name.empty()) {
    ok = X509_VERIFY_PARAM_set1_host(param, server_name.c_str(), server_name.size()) == 1 &&
         SSL_set_tlsext_host_name(ssl, server_name.c_str()) == 1;
  } else if (ok) {
    ok = X509_VERIFY_PARAM_set1_ip(param, address.bytes, address.size) == 1;
  }
  if (!ok) {
    SSL_free(ssl);
    ERR_clear_error();
    return nullptr;
  }
  SSL_set_connect_state(ssl);
  return ssl;
}

std::string VerifyErrorName(long result) {
  for (const VerifyName& v : kVerifyNames) {
    if (v.result == result) return v.name;
  }
  return "X509_V_ERR_" + std::to_string(result);
}

TlsFacts FactsOf(SSL* ssl) {
  TlsFacts facts;
  facts.verify_result = SSL_get_verify_result(ssl);
  if (facts.verify_result != X509_V_OK) facts.verify_error = VerifyErrorName(facts.verify_result);
  facts.protocol = SSL_get_version(ssl);
  const SSL_CIPHER* cipher = SSL_get_current_cipher(ssl);
  const char* standard = cipher == nullptr ? nullptr : SSL_CIPHER_standard_name(cipher);
  facts.cipher = standard != nullptr ? standard : cipher != nullptr ? SSL_CIPHER_get_name(cipher) : "unknown";
  const unsigned char* staple = nullptr;
  facts.ocsp_stapled = SSL_get_tlsext_status_ocsp_resp(ssl, &staple) > 0 && staple != nullptr;
  // The verified chain ends at the anchor from the store; without verification only the server's word.
  STACK_OF(X509)* verified = facts.verify_result == X509_V_OK ? SSL_get0_verified_chain(ssl) : nullptr;
  facts.chain = ChainOf(verified != nullptr ? verified : SSL_get_peer_cert_chain(ssl));
  ERR_clear_error();
  return facts;
}

std::string TlsErrorCode(int ssl_error, int saved_errno) {
  const unsigned long err = ERR_peek_last_error();
  ERR_clear_error();
  if (ssl_error == SSL_ERROR_SYSCALL || err == 0) return saved_errno == 0 ? "ECONNRESET" : ErrnoName(saved_errno);
  const char* reason = ERR_reason_error_string(err);
  if (reason == nullptr) return "ERR_SSL_" + std::to_string(ERR_GET_REASON(err));
  // Node's form: ERR_SSL_ and the reason upper-cased, spaces as underscores (ERR_SSL_WRONG_VERSION_NUMBER).
  std::string code = "ERR_SSL_";
  for (const char* c = reason; *c != '\0'; ++c) {
    code.push_back(*c == ' ' ? '_' : static_cast<char>(std::toupper(static_cast<unsigned char>(*c))));
  }
  return code;
}

}  // namespace nettools::http
