#include "http/http_result_js.h"

#include <string>

#include "common/hex_text.h"

namespace nettools::http {

namespace {

const char* StageName(Stage s) {
  switch (s) {
    case Stage::kConnect:
      return "connect";
    case Stage::kHandshake:
      return "handshake";
    case Stage::kResponse:
      return "response";
    case Stage::kAnswered:
      break;
  }
  return "answered";
}

const char* FailureName(Failure f) {
  switch (f) {
    case Failure::kRefused:
      return "refused";
    case Failure::kUnreachable:
      return "unreachable";
    case Failure::kTimeout:
      return "timeout";
    case Failure::kError:
      return "error";
    case Failure::kNone:
      break;
  }
  return "none";
}

// Header bytes are the server's, not necessarily UTF-8: latin1 keeps each byte as one character, as
// Node's own HTTP parser hands them over.
Napi::Value Latin1(Napi::Env env, const std::string& s) {
  napi_value out;
  if (napi_create_string_latin1(env, s.data(), s.size(), &out) != napi_ok) return env.Undefined();
  return Napi::Value(env, out);
}

void SetNs(Napi::Object o, const char* name, bool reached, uint64_t ns) {
  if (reached) o.Set(name, Napi::Number::New(o.Env(), static_cast<double>(ns)));
}

Napi::Object TlsObject(Napi::Env env, const TlsFacts& tls) {
  Napi::Object o = Napi::Object::New(env);
  o.Set("verified", Napi::Boolean::New(env, tls.verify_result == 0));
  if (!tls.verify_error.empty()) o.Set("verifyError", Napi::String::New(env, tls.verify_error));
  o.Set("protocol", Napi::String::New(env, tls.protocol));
  o.Set("cipher", Napi::String::New(env, tls.cipher));
  o.Set("ocspStapled", Napi::Boolean::New(env, tls.ocsp_stapled));
  Napi::Array chain = Napi::Array::New(env, tls.chain.size());
  for (size_t i = 0; i < tls.chain.size(); ++i) {
    chain.Set(static_cast<uint32_t>(i), Napi::Buffer<uint8_t>::Copy(env, tls.chain[i].data(), tls.chain[i].size()));
  }
  o.Set("chain", chain);
  return o;
}

void SetAnswer(Napi::Env env, Napi::Object o, const ExchangeResult& r) {
  o.Set("status", Napi::Number::New(env, r.head.status));
  o.Set("httpVersion", Napi::String::New(env, "1." + std::to_string(r.head.version_minor)));
  Napi::Array raw = Napi::Array::New(env, r.head.headers.size() * 2);
  uint32_t i = 0;
  for (const Header& h : r.head.headers) {
    raw.Set(i++, Latin1(env, h.name));
    raw.Set(i++, Latin1(env, h.value));
  }
  o.Set("rawHeaders", raw);
  o.Set("headersDropped", Napi::Number::New(env, static_cast<double>(r.head.headers_dropped)));
  if (!r.has_body) return;
  Napi::Object body = Napi::Object::New(env);
  body.Set("bytes", Napi::Number::New(env, static_cast<double>(r.body_bytes)));
  body.Set("truncated", Napi::Boolean::New(env, r.truncated));
  body.Set("sha256", Napi::String::New(env, HexText(r.sha256, sizeof(r.sha256))));
  o.Set("body", body);
}

}  // namespace

Napi::Object ResultObject(Napi::Env env, const ExchangeResult& r) {
  Napi::Object o = Napi::Object::New(env);
  o.Set("stage", Napi::String::New(env, StageName(r.stage)));
  if (r.failure != Failure::kNone) o.Set("failure", Napi::String::New(env, FailureName(r.failure)));
  if (!r.code.empty()) o.Set("code", Napi::String::New(env, r.code));
  SetNs(o, "connectNs", r.connected, r.connect_ns);
  SetNs(o, "tlsNs", r.secured, r.tls_ns);
  SetNs(o, "requestNs", r.sent, r.request_ns);
  SetNs(o, "firstByteNs", r.first_byte, r.first_byte_ns);
  SetNs(o, "transferNs", r.has_body && (r.stage == Stage::kAnswered || r.truncated), r.transfer_ns);
  o.Set("totalNs", Napi::Number::New(env, static_cast<double>(r.total_ns)));
  if (r.has_tls) o.Set("tls", TlsObject(env, r.tls));
  if (r.has_head) SetAnswer(env, o, r);
  return o;
}

}  // namespace nettools::http
