#include "dns/dns_engine_binding.h"

#include <uv.h>

#include <memory>
#include <string>
#include <unordered_map>

#include "dns/dns_engine.h"

namespace nettools::dns {

namespace {

// The one place where a Status becomes a JS error.
Napi::Error ErrorFor(Napi::Env env, Status s, const std::string& message) {
  Napi::Error e = Napi::Error::New(env, message);
  e.Set("code", Napi::String::New(env, StatusCode(s)));
  return e;
}

bool TypeFromName(const std::string& name, uint16_t* out) {
  if (name == "A") *out = type::kA;
  else if (name == "AAAA") *out = type::kAaaa;
  else if (name == "MX") *out = type::kMx;
  else if (name == "TXT") *out = type::kTxt;
  else return false;
  return true;
}

bool ParseEndpoint(const std::string& address, uint32_t port, sockaddr_storage* out) {
  if (port == 0 || port > 65535) return false;
  // Literal parsing only: these never consult a resolver.
  if (uv_ip4_addr(address.c_str(), static_cast<int>(port), reinterpret_cast<sockaddr_in*>(out)) == 0) return true;
  return uv_ip6_addr(address.c_str(), static_cast<int>(port), reinterpret_cast<sockaddr_in6*>(out)) == 0;
}

Napi::Array Flags(Napi::Env env, uint16_t flags) {
  static constexpr struct {
    uint16_t bit;
    const char* name;
  } kFlags[] = {{flag::kQr, "qr"}, {flag::kAa, "aa"}, {flag::kTc, "tc"}, {flag::kRd, "rd"},
                {flag::kRa, "ra"}, {flag::kAd, "ad"}, {flag::kCd, "cd"}};
  Napi::Array out = Napi::Array::New(env);
  uint32_t n = 0;
  for (const auto& f : kFlags) {
    if (flags & f.bit) out.Set(n++, Napi::String::New(env, f.name));
  }
  return out;
}

Napi::Object RecordToJs(Napi::Env env, const Record& r) {
  Napi::Object o = Napi::Object::New(env);
  switch (r.type) {
    case type::kA:
    case type::kAaaa:
      o.Set("address", r.address);
      break;
    case type::kMx:
      o.Set("priority", r.preference);
      o.Set("exchange", NameToText(r.target));
      break;
    case type::kTxt: {
      Napi::Array parts = Napi::Array::New(env, r.parts.size());
      std::string value;
      for (uint32_t i = 0; i < r.parts.size(); ++i) {
        parts.Set(i, r.parts[i]);
        value += r.parts[i];
      }
      o.Set("value", value);
      o.Set("parts", parts);
      break;
    }
    default:
      break;
  }
  o.Set("ttl", Napi::Number::New(env, r.ttl));
  return o;
}

Napi::Object OutcomeToJs(Napi::Env env, const QueryOutcome& q) {
  Napi::Object o = Napi::Object::New(env);
  if (q.status != Status::kOk) {
    if (IsWireError(q.status)) {
      o.Set("error", "malformed");
      o.Set("detail", StatusCode(q.status));
    } else {
      o.Set("error", StatusCode(q.status));
    }
    return o;
  }
  o.Set("rcode", RcodeName(q.rcode));
  o.Set("flags", Flags(env, q.flags));
  o.Set("rttMs", q.rtt_ms);
  o.Set("transport", q.tcp ? "tcp" : "udp");
  Napi::Array answers = Napi::Array::New(env, q.records.size());
  for (uint32_t i = 0; i < q.records.size(); ++i) answers.Set(i, RecordToJs(env, q.records[i]));
  o.Set("answers", answers);
  Napi::Array chain = Napi::Array::New(env, q.chain.size());
  for (uint32_t i = 0; i < q.chain.size(); ++i) {
    Napi::Object link = Napi::Object::New(env);
    link.Set("name", q.chain[i].name);
    link.Set("target", q.chain[i].target);
    link.Set("ttl", Napi::Number::New(env, q.chain[i].ttl));
    chain.Set(i, link);
  }
  o.Set("cnames", chain);
  return o;
}

class DnsEngineWrap : public Napi::ObjectWrap<DnsEngineWrap> {
 public:
  static Napi::Function Define(Napi::Env env) {
    return DefineClass(env, "DnsEngine",
                       {
                           InstanceMethod("query", &DnsEngineWrap::Query),
                           InstanceMethod("cancel", &DnsEngineWrap::Cancel),
                           InstanceMethod("counters", &DnsEngineWrap::Counters),
                           InstanceMethod("close", &DnsEngineWrap::Close),
                       });
  }

  explicit DnsEngineWrap(const Napi::CallbackInfo& info)
      : Napi::ObjectWrap<DnsEngineWrap>(info), async_(info.Env(), "nettools:DnsEngine") {
    Napi::Env env = info.Env();
    uv_loop_t* loop = nullptr;
    if (napi_get_uv_event_loop(env, &loop) != napi_ok || loop == nullptr) {
      throw ErrorFor(env, Status::kNetworkError, "no event loop for the DNS engine");
    }
    core_ = std::make_shared<EngineCore>(loop, [this](uint32_t id, QueryOutcome& o) { OnDone(id, o); });
    // Sockets and timers must be closed before the environment (a worker, say) tears its loop down.
    if (napi_add_env_cleanup_hook(env, OnEnvCleanup, this) == napi_ok) hook_registered_ = true;
  }

  ~DnsEngineWrap() override {
    if (hook_registered_) napi_remove_env_cleanup_hook(Env(), OnEnvCleanup, this);
    Shutdown();
  }

 private:
  static void OnEnvCleanup(void* arg) {
    auto* self = static_cast<DnsEngineWrap*>(arg);
    self->hook_registered_ = false;
    self->Shutdown();
  }

  void Shutdown() {
    closed_ = true;
    core_->Detach();
    core_->CancelAll();
  }

  // query({ address, port, name, type, timeoutMs }, (result) => void): number
  Napi::Value Query(const Napi::CallbackInfo& info) {
    Napi::Env env = info.Env();
    if (closed_) throw ErrorFor(env, Status::kEngineClosed, "the DNS engine is closed");
    if (info.Length() < 2 || !info[0].IsObject() || !info[1].IsFunction()) {
      throw ErrorFor(env, Status::kInvalidArgument, "query(spec, callback) expects an object and a function");
    }
    Napi::Object spec = info[0].As<Napi::Object>();
    QuerySpec q;
    std::string address = spec.Get("address").ToString();
    uint32_t port = spec.Get("port").ToNumber().Uint32Value();
    if (!ParseEndpoint(address, port, &q.server)) {
      throw ErrorFor(env, Status::kInvalidAddress, "resolver address must be an IP literal with a port");
    }
    if (!TypeFromName(spec.Get("type").ToString(), &q.type)) {
      throw ErrorFor(env, Status::kInvalidType, "type must be one of A, AAAA, MX, TXT");
    }
    q.name = spec.Get("name").ToString().Utf8Value();
    q.timeout_ms = spec.Get("timeoutMs").ToNumber().Uint32Value();
    uint32_t id = 0;
    Status s = core_->Start(q, &id);
    if (s != Status::kOk) throw ErrorFor(env, s, std::string("cannot start the query: ") + StatusCode(s));
    callbacks_.emplace(id, Napi::Persistent(info[1].As<Napi::Function>()));
    // Pending callbacks need this object alive even if JS drops every reference to it.
    if (!refd_) {
      Ref();
      refd_ = true;
    }
    return Napi::Number::New(env, id);
  }

  Napi::Value Cancel(const Napi::CallbackInfo& info) {
    Napi::Env env = info.Env();
    uint32_t id = info[0].ToNumber().Uint32Value();
    bool found = core_->Cancel(id);
    callbacks_.erase(id);
    ReleaseIfIdle();
    return Napi::Boolean::New(env, found);
  }

  Napi::Value Counters(const Napi::CallbackInfo& info) {
    Napi::Env env = info.Env();
    const dns::Counters& c = core_->counters();
    Napi::Object o = Napi::Object::New(env);
    o.Set("queries", Napi::Number::New(env, static_cast<double>(c.queries)));
    o.Set("sent", Napi::Number::New(env, static_cast<double>(c.sent)));
    o.Set("answered", Napi::Number::New(env, static_cast<double>(c.answered)));
    o.Set("timeouts", Napi::Number::New(env, static_cast<double>(c.timeouts)));
    o.Set("retries", Napi::Number::New(env, static_cast<double>(c.retries)));
    o.Set("tcpFallbacks", Napi::Number::New(env, static_cast<double>(c.tcp_fallbacks)));
    o.Set("mismatchedDropped", Napi::Number::New(env, static_cast<double>(c.mismatched_dropped)));
    o.Set("malformedDropped", Napi::Number::New(env, static_cast<double>(c.malformed_dropped)));
    o.Set("errors", Napi::Number::New(env, static_cast<double>(c.errors)));
    o.Set("cancelled", Napi::Number::New(env, static_cast<double>(c.cancelled)));
    o.Set("inFlight", Napi::Number::New(env, static_cast<double>(core_->active())));
    return o;
  }

  Napi::Value Close(const Napi::CallbackInfo& info) {
    Shutdown();
    callbacks_.clear();
    ReleaseIfIdle();
    return info.Env().Undefined();
  }

  void OnDone(uint32_t id, QueryOutcome& outcome) {
    auto it = callbacks_.find(id);
    if (it == callbacks_.end()) return;
    Napi::FunctionReference cb = std::move(it->second);
    callbacks_.erase(it);
    Napi::Env env = Env();
    Napi::HandleScope scope(env);
    Napi::Object result = OutcomeToJs(env, outcome);
    // MakeCallback, not Call: we are on a bare libuv callback, and promise jobs must run after it.
    try {
      cb.MakeCallback(Value(), {result}, async_);
    } catch (const Napi::Error& e) {
      napi_fatal_exception(env, e.Value());
    }
    ReleaseIfIdle();  // last: it may let the GC free this object
  }

  void ReleaseIfIdle() {
    if (refd_ && callbacks_.empty()) {
      refd_ = false;
      Unref();
    }
  }

  std::shared_ptr<EngineCore> core_;
  std::unordered_map<uint32_t, Napi::FunctionReference> callbacks_;
  Napi::AsyncContext async_;
  bool hook_registered_ = false;
  bool closed_ = false;
  bool refd_ = false;
};

}  // namespace

Napi::Function DefineDnsEngine(Napi::Env env) { return DnsEngineWrap::Define(env); }

}  // namespace nettools::dns
