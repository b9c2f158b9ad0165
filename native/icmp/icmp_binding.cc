#include "icmp/icmp_binding.h"

#include <cstring>
#include <initializer_list>
#include <string>

namespace nettools {

namespace {

using icmp::Family;
using icmp::IcmpError;

// The one place engine codes become JavaScript errors.
Napi::Error CodedError(Napi::Env env, IcmpError code, const std::string& detail = std::string()) {
  Napi::Error err = Napi::Error::New(env, detail.empty() ? icmp::IcmpErrorMessage(code) : detail);
  err.Set("code", Napi::String::New(env, icmp::IcmpErrorCode(code)));
  return err;
}

const char* StatusName(icmp::ReplyStatus s) {
  switch (s) {
    case icmp::ReplyStatus::kReply: return "reply";
    case icmp::ReplyStatus::kTimeout: return "timeout";
    case icmp::ReplyStatus::kUnreachable: return "unreachable";
    case icmp::ReplyStatus::kTimeExceeded: return "time-exceeded";
  }
  return "timeout";
}

uint32_t UintField(Napi::Env env, const Napi::Object& o, const char* name) {
  Napi::Value v = o.Get(name);
  if (!v.IsNumber()) throw CodedError(env, IcmpError::kBadOptions, std::string(name) + " must be a number");
  const double d = v.As<Napi::Number>().DoubleValue();
  if (!(d >= 0 && d <= 4294967295.0) || d != static_cast<double>(static_cast<uint32_t>(d))) {
    throw CodedError(env, IcmpError::kBadOptions, std::string(name) + " must be a non-negative integer");
  }
  return static_cast<uint32_t>(d);
}

Napi::Object FamilyObject(Napi::Env env, const icmp::FamilyState& st) {
  Napi::Object o = Napi::Object::New(env);
  if (st.open) {
    o.Set("kind", st.kind == icmp::SocketKind::kDgram ? "dgram" : "raw");
    o.Set("id", st.id);
  } else {
    o.Set("kind", env.Null());
    o.Set("error", std::strerror(st.error));
  }
  return o;
}

}  // namespace

Napi::Function IcmpEngine::Init(Napi::Env env) {
  return DefineClass(env, "IcmpEngine",
                     {
                         InstanceMethod("ping", &IcmpEngine::Ping),
                         InstanceMethod("cancel", &IcmpEngine::Cancel),
                         InstanceMethod("close", &IcmpEngine::Close),
                         InstanceMethod("socketKinds", &IcmpEngine::SocketKinds),
                         InstanceMethod("stats", &IcmpEngine::Stats),
                     });
}

IcmpEngine::IcmpEngine(const Napi::CallbackInfo& info)
    : Napi::ObjectWrap<IcmpEngine>(info),
      env_(info.Env()),
      life_(new Lifetime()),
      context_(info.Env(), "IcmpEngine") {
  Napi::Env env = info.Env();
  icmp::KindPreference pref = icmp::KindPreference::kAuto;
  if (info.Length() > 0 && info[0].IsObject()) {
    Napi::Value kind = info[0].As<Napi::Object>().Get("kind");
    if (kind.IsString()) {
      const std::string k = kind.As<Napi::String>();
      if (k == "dgram") {
        pref = icmp::KindPreference::kDgram;
      } else if (k == "raw") {
        pref = icmp::KindPreference::kRaw;
      } else if (k != "auto") {
        throw CodedError(env, IcmpError::kBadOptions, "kind must be 'auto', 'dgram' or 'raw'");
      }
    }
  }
  uv_loop_t* loop = nullptr;
  if (napi_get_uv_event_loop(env, &loop) != napi_ok || loop == nullptr) {
    throw CodedError(env, IcmpError::kNoEventLoop);
  }
  life_->engine = icmp::Engine::Create(loop, pref, [this](uint64_t session, icmp::PingResult&& result) {
    Deliver(session, std::move(result));
  });
  if (napi_add_async_cleanup_hook(env, &IcmpEngine::AsyncCleanup, life_, &life_->hook) != napi_ok) {
    life_->hook = nullptr;
  }
}

IcmpEngine::~IcmpEngine() {
  Shutdown();
  life_->owner_gone = true;
  if (life_->closed) delete life_;
}

void IcmpEngine::StartClose(Lifetime* life) {
  icmp::Engine* engine = life->engine;
  if (engine == nullptr) return;
  life->engine = nullptr;
  engine->Close([life] {
    // Every handle is released: environment teardown may go on (or, outside teardown, the hook goes).
    if (life->hook != nullptr) napi_remove_async_cleanup_hook(life->hook);
    life->hook = nullptr;
    life->closed = true;
    if (life->owner_gone) delete life;
  });
}

void IcmpEngine::AsyncCleanup(napi_async_cleanup_hook_handle /*handle*/, void* arg) {
  auto* life = static_cast<Lifetime*>(arg);
  // Already closing (closed by JavaScript): the pending close will remove the hook when done.
  StartClose(life);
}

void IcmpEngine::Shutdown() {
  StartClose(life_);
  callbacks_.clear();
}

// While a ping is in flight the wrapper stays alive, so its callback can still be delivered.
void IcmpEngine::ReleaseSession(uint64_t session) {
  if (callbacks_.erase(session) > 0 && callbacks_.empty()) Unref();
}

Napi::Value IcmpEngine::Ping(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  if (engine() == nullptr) throw CodedError(env, IcmpError::kClosed);
  if (info.Length() < 2 || !info[0].IsObject() || !info[1].IsFunction()) {
    throw CodedError(env, IcmpError::kBadOptions, "ping(options, callback)");
  }
  Napi::Object o = info[0].As<Napi::Object>();
  Napi::Value address = o.Get("address");
  if (!address.IsString()) throw CodedError(env, IcmpError::kBadOptions, "address must be a string");
  const uint32_t family = UintField(env, o, "family");
  if (family != 4 && family != 6) throw CodedError(env, IcmpError::kBadOptions, "family must be 4 or 6");
  icmp::PingOptions opts;
  const IcmpError parsed =
      icmp::ParseAddress(family == 4 ? Family::kV4 : Family::kV6, address.As<Napi::String>(), &opts);
  if (parsed != IcmpError::kOk) throw CodedError(env, parsed);
  opts.count = UintField(env, o, "count");
  opts.interval_ms = UintField(env, o, "intervalMs");
  opts.timeout_ms = UintField(env, o, "timeoutMs");
  opts.size = UintField(env, o, "size");
  Napi::Value ttl = o.Get("ttl");
  if (!ttl.IsUndefined() && !ttl.IsNull()) opts.ttl = static_cast<int>(UintField(env, o, "ttl"));
  uint64_t session = 0;
  const IcmpError started = engine()->Start(opts, &session);
  if (started != IcmpError::kOk) throw CodedError(env, started);
  if (callbacks_.empty()) Ref();
  callbacks_.emplace(session, Napi::Persistent(info[1].As<Napi::Function>()));
  return Napi::Number::New(env, static_cast<double>(session));
}

Napi::Value IcmpEngine::Cancel(const Napi::CallbackInfo& info) {
  if (engine() != nullptr && info.Length() > 0 && info[0].IsNumber()) {
    const auto session = static_cast<uint64_t>(info[0].As<Napi::Number>().Int64Value());
    engine()->Cancel(session);
    ReleaseSession(session);
  }
  return info.Env().Undefined();
}

Napi::Value IcmpEngine::Close(const Napi::CallbackInfo& info) {
  const bool had_sessions = !callbacks_.empty();
  Shutdown();
  if (had_sessions) Unref();
  return info.Env().Undefined();
}

Napi::Value IcmpEngine::SocketKinds(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  if (engine() == nullptr) throw CodedError(env, IcmpError::kClosed);
  Napi::Object o = Napi::Object::New(env);
  o.Set("v4", FamilyObject(env, engine()->state(Family::kV4)));
  o.Set("v6", FamilyObject(env, engine()->state(Family::kV6)));
  return o;
}

Napi::Value IcmpEngine::Stats(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  Napi::Object o = Napi::Object::New(env);
  if (engine() == nullptr) return o;
  for (Family f : {Family::kV4, Family::kV6}) {
    const icmp::FamilyState st = engine()->state(f);
    Napi::Object fo = Napi::Object::New(env);
    fo.Set("inFlight", static_cast<double>(st.in_flight));
    fo.Set("drops", static_cast<double>(st.drops));
    fo.Set("stray", static_cast<double>(st.stray));
    o.Set(f == Family::kV4 ? "v4" : "v6", fo);
  }
  o.Set("sessions", static_cast<double>(engine()->sessions()));
  return o;
}

void IcmpEngine::Deliver(uint64_t session, icmp::PingResult&& result) {
  auto it = callbacks_.find(session);
  if (it == callbacks_.end()) return;
  Napi::FunctionReference cb = std::move(it->second);
  ReleaseSession(session);
  Napi::Env env = env_;
  Napi::HandleScope scope(env);
  Napi::Object out = Napi::Object::New(env);
  Napi::Array replies = Napi::Array::New(env, result.echoes.size());
  for (size_t i = 0; i < result.echoes.size(); ++i) {
    const icmp::EchoOutcome& e = result.echoes[i];
    Napi::Object r = Napi::Object::New(env);
    r.Set("seq", static_cast<double>(i));
    r.Set("status", StatusName(e.status));
    if (e.status == icmp::ReplyStatus::kReply) {
      r.Set("rttMs", e.rtt_ms);
      if (e.ttl >= 0) r.Set("ttl", e.ttl);
      r.Set("bytes", static_cast<double>(e.bytes));
    }
    if (!e.from.empty()) r.Set("from", e.from);
    if (e.reason != nullptr) r.Set("reason", e.reason);
    replies.Set(static_cast<uint32_t>(i), r);
  }
  out.Set("replies", replies);
  out.Set("duplicates", static_cast<double>(result.duplicates));
  out.Set("durationMs", result.duration_ms);
  try {
    // MakeCallback runs the microtask queue afterwards, so promises settled in the callback resolve now.
    cb.MakeCallback(Value(), {out}, context_);
  } catch (const Napi::Error& e) {
    napi_fatal_exception(env, e.Value());
  }
}

}  // namespace nettools
