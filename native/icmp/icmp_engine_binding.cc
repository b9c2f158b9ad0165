#include "icmp/icmp_engine_binding.h"

#include <cstdint>
#include <cstring>
#include <initializer_list>
#include <string>
#include <unordered_map>
#include <utility>

#include "icmp/icmp_engine.h"
#include "icmp/icmp_limits.h"
#include "icmp/icmp_result_js.h"

namespace nettools::icmp {

namespace {

// The one place where a Status becomes a JS error.
Napi::Error StatusError(Napi::Env env, Status s, const std::string& detail = std::string()) {
  Napi::Error e = Napi::Error::New(env, detail.empty() ? StatusMessage(s) : detail);
  e.Set("code", Napi::String::New(env, StatusCode(s)));
  return e;
}

uint32_t UintArg(Napi::Env env, const Napi::Value& v, const char* name) {
  if (!v.IsNumber()) throw StatusError(env, Status::kInvalidOptions, std::string(name) + " must be a number");
  const double d = v.As<Napi::Number>().DoubleValue();
  if (!(d >= 0 && d <= 4294967295.0) || d != static_cast<double>(static_cast<uint32_t>(d))) {
    throw StatusError(env, Status::kInvalidOptions, std::string(name) + " must be a non-negative integer");
  }
  return static_cast<uint32_t>(d);
}

Napi::Object FamilyObject(Napi::Env env, const FamilyState& st) {
  Napi::Object o = Napi::Object::New(env);
  if (st.open) {
    o.Set("kind", st.kind == SocketKind::kDgram ? "dgram" : "raw");
    o.Set("id", st.id);
  } else {
    o.Set("kind", env.Null());
    o.Set("error", std::strerror(st.error));
  }
  return o;
}

// IcmpEngine.limits: { count: [min, max], ... }, so TypeScript validates with the numbers of icmp_limits.h.
Napi::Object LimitsObject(Napi::Env env) {
  const std::pair<const char*, Range> entries[] = {
      {"count", limits::kCount}, {"intervalMs", limits::kIntervalMs}, {"timeoutMs", limits::kTimeoutMs},
      {"size", limits::kSize},   {"ttl", limits::kTtl},
  };
  Napi::Object o = Napi::Object::New(env);
  for (const auto& [name, range] : entries) {
    Napi::Array pair = Napi::Array::New(env, 2);
    pair.Set(0u, range.min);
    pair.Set(1u, range.max);
    pair.Freeze();
    o.Set(name, pair);
  }
  o.Freeze();
  return o;
}

class IcmpEngineWrap : public Napi::ObjectWrap<IcmpEngineWrap> {
 public:
  static Napi::Function Define(Napi::Env env);
  explicit IcmpEngineWrap(const Napi::CallbackInfo& info);
  ~IcmpEngineWrap() override;

 private:
  Napi::Value Ping(const Napi::CallbackInfo& info);
  Napi::Value Trace(const Napi::CallbackInfo& info);
  Napi::Value Begin(const Napi::CallbackInfo& info, const PingOptions& opts, size_t done_at);
  Napi::Value Cancel(const Napi::CallbackInfo& info);
  Napi::Value Close(const Napi::CallbackInfo& info);
  Napi::Value SocketKinds(const Napi::CallbackInfo& info);
  Napi::Value Stats(const Napi::CallbackInfo& info);

  // Outlives the wrapper when needed: libuv close callbacks live in this library, so the environment
  // must not finish tearing down (and unload us) before they ran. An async cleanup hook lets Node wait.
  struct Lifetime {
    Engine* engine = nullptr;  // null once closing started
    napi_async_cleanup_hook_handle hook = nullptr;
    bool closed = false;      // every handle released
    bool owner_gone = false;  // wrapper destroyed
  };

  void Deliver(uint64_t session, PingResult&& result);
  void Progress(uint64_t session, uint32_t index, const EchoOutcome& outcome);
  void Shutdown();
  void ReleaseSession(uint64_t session);
  Engine* engine() const { return life_->engine; }
  static void StartClose(Lifetime* life);
  static void AsyncCleanup(napi_async_cleanup_hook_handle handle, void* arg);

  Napi::Env env_;
  Lifetime* life_;
  std::unordered_map<uint64_t, Napi::FunctionReference> callbacks_;
  // Only for pings started with a progress function: without one, an echo costs no JS call.
  std::unordered_map<uint64_t, Napi::FunctionReference> progress_;
  Napi::AsyncContext context_;
  ResultWriter writer_;
};

Napi::Function IcmpEngineWrap::Define(Napi::Env env) {
  return DefineClass(env, "IcmpEngine",
                     {
                         InstanceMethod("ping", &IcmpEngineWrap::Ping),
                         InstanceMethod("trace", &IcmpEngineWrap::Trace),
                         InstanceMethod("cancel", &IcmpEngineWrap::Cancel),
                         InstanceMethod("close", &IcmpEngineWrap::Close),
                         InstanceMethod("socketKinds", &IcmpEngineWrap::SocketKinds),
                         InstanceMethod("stats", &IcmpEngineWrap::Stats),
                         StaticValue("limits", LimitsObject(env), napi_enumerable),
                         StaticValue("statusNames", ReplyStatusNames(env), napi_enumerable),
                     });
}

IcmpEngineWrap::IcmpEngineWrap(const Napi::CallbackInfo& info)
    : Napi::ObjectWrap<IcmpEngineWrap>(info),
      env_(info.Env()),
      life_(nullptr),
      context_(info.Env(), "nettools:IcmpEngine"),
      writer_(info.Env()) {
  Napi::Env env = info.Env();
  KindPreference pref = KindPreference::kAuto;
  if (info.Length() > 0 && info[0].IsObject()) {
    Napi::Value kind = info[0].As<Napi::Object>().Get("kind");
    if (kind.IsString()) {
      const std::string k = kind.As<Napi::String>();
      if (k == "dgram") {
        pref = KindPreference::kDgram;
      } else if (k == "raw") {
        pref = KindPreference::kRaw;
      } else if (k != "auto") {
        throw StatusError(env, Status::kInvalidOptions, "kind must be 'auto', 'dgram' or 'raw'");
      }
    }
  }
  uv_loop_t* loop = nullptr;
  if (napi_get_uv_event_loop(env, &loop) != napi_ok || loop == nullptr) {
    throw StatusError(env, Status::kNoEventLoop);
  }
  Engine* engine = nullptr;
  const Status created = Engine::Create(
      loop, pref, [this](uint64_t session, PingResult&& result) { Deliver(session, std::move(result)); },
      &engine, [this](uint64_t session, uint32_t index, const EchoOutcome& o) { Progress(session, index, o); });
  if (created != Status::kOk) throw StatusError(env, created);
  // Allocated last: a constructor that throws never runs the destructor that would free it.
  life_ = new Lifetime();
  life_->engine = engine;
  if (napi_add_async_cleanup_hook(env, &IcmpEngineWrap::AsyncCleanup, life_, &life_->hook) != napi_ok) {
    life_->hook = nullptr;
  }
}

IcmpEngineWrap::~IcmpEngineWrap() {
  Shutdown();
  life_->owner_gone = true;
  if (life_->closed) delete life_;
}

void IcmpEngineWrap::StartClose(Lifetime* life) {
  Engine* engine = life->engine;
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

void IcmpEngineWrap::AsyncCleanup(napi_async_cleanup_hook_handle /*handle*/, void* arg) {
  auto* life = static_cast<Lifetime*>(arg);
  // Already closing (closed by JavaScript): the pending close will remove the hook when done.
  StartClose(life);
}

void IcmpEngineWrap::Shutdown() {
  StartClose(life_);
  callbacks_.clear();
  progress_.clear();
}

// While a ping is in flight the wrapper stays alive, so its callback can still be delivered.
void IcmpEngineWrap::ReleaseSession(uint64_t session) {
  if (!progress_.empty()) progress_.erase(session);
  if (callbacks_.erase(session) > 0 && callbacks_.empty()) Unref();
}

// ping(address, family, count, intervalMs, timeoutMs, size, ttl, done, progress?): positional, because
// reading named properties costs an internalized key lookup each (measured at about 2% of a loopback ping
// request). ttl -1 means the socket's default. progress, a function or undefined, is called with
// (index, numbers, texts) for each echo as it is decided (ResultWriter::PackedEcho), before done.
Napi::Value IcmpEngineWrap::Ping(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  if (engine() == nullptr) throw StatusError(env, Status::kEngineClosed);
  const bool progress = info.Length() > 8 && info[8].IsFunction();
  if (info.Length() < 8 || !info[7].IsFunction() || (info.Length() > 8 && !progress && !info[8].IsUndefined())) {
    throw StatusError(env, Status::kInvalidOptions,
                      "ping(address, family, count, intervalMs, timeoutMs, size, ttl, done, progress?)");
  }
  if (!info[0].IsString()) throw StatusError(env, Status::kInvalidOptions, "address must be a string");
  const uint32_t family = UintArg(env, info[1], "family");
  if (family != 4 && family != 6) throw StatusError(env, Status::kInvalidOptions, "family must be 4 or 6");
  PingOptions opts;
  const Status parsed =
      ParseAddress(family == 4 ? Family::kV4 : Family::kV6, info[0].As<Napi::String>(), &opts);
  if (parsed != Status::kOk) throw StatusError(env, parsed);
  opts.count = UintArg(env, info[2], "count");
  opts.interval_ms = UintArg(env, info[3], "intervalMs");
  opts.timeout_ms = UintArg(env, info[4], "timeoutMs");
  opts.size = UintArg(env, info[5], "size");
  if (!(info[6].IsNumber() && info[6].As<Napi::Number>().DoubleValue() == -1)) {
    opts.has_ttl = true;
    opts.ttl = UintArg(env, info[6], "ttl");
  }
  return Begin(info, opts, 7);
}

// trace(address, family, maxHops, probesPerHop, timeoutMs, paceUs, size, done, progress?): one session
// whose echo i goes out with TTL 1 + i / probesPerHop, paceUs apart; results and progress as for ping.
Napi::Value IcmpEngineWrap::Trace(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  if (engine() == nullptr) throw StatusError(env, Status::kEngineClosed);
  const bool progress = info.Length() > 8 && info[8].IsFunction();
  if (info.Length() < 8 || !info[7].IsFunction() || (info.Length() > 8 && !progress && !info[8].IsUndefined()) ||
      !info[0].IsString()) {
    throw StatusError(env, Status::kInvalidOptions,
                      "trace(address, family, maxHops, probesPerHop, timeoutMs, paceUs, size, done, progress?)");
  }
  const uint32_t family = UintArg(env, info[1], "family");
  if (family != 4 && family != 6) throw StatusError(env, Status::kInvalidOptions, "family must be 4 or 6");
  PingOptions opts;
  const Status parsed = ParseAddress(family == 4 ? Family::kV4 : Family::kV6, info[0].As<Napi::String>(), &opts);
  if (parsed != Status::kOk) throw StatusError(env, parsed);
  const uint32_t hops = UintArg(env, info[2], "maxHops");
  opts.probes_per_ttl = UintArg(env, info[3], "probesPerHop");
  if (hops > limits::kTtl.max || opts.probes_per_ttl > limits::kProbesPerTtl.max) {
    throw StatusError(env, Status::kInvalidOptions);
  }
  opts.count = hops * opts.probes_per_ttl;
  opts.timeout_ms = UintArg(env, info[4], "timeoutMs");
  opts.pace_us = UintArg(env, info[5], "paceUs");
  opts.size = UintArg(env, info[6], "size");
  return Begin(info, opts, 7);
}

// Starts a session with the done function at info[done_at] and an optional progress one after it.
Napi::Value IcmpEngineWrap::Begin(const Napi::CallbackInfo& info, const PingOptions& opts, size_t done_at) {
  Napi::Env env = info.Env();
  const bool progress = info.Length() > done_at + 1 && info[done_at + 1].IsFunction();
  uint64_t session = 0;
  const Status started = engine()->Start(opts, &session, progress);
  if (started != Status::kOk) throw StatusError(env, started);
  if (callbacks_.empty()) Ref();
  callbacks_.emplace(session, Napi::Persistent(info[done_at].As<Napi::Function>()));
  if (progress) progress_.emplace(session, Napi::Persistent(info[done_at + 1].As<Napi::Function>()));
  return Napi::Number::New(env, static_cast<double>(session));
}

Napi::Value IcmpEngineWrap::Cancel(const Napi::CallbackInfo& info) {
  if (engine() != nullptr && info.Length() > 0 && info[0].IsNumber()) {
    const auto session = static_cast<uint64_t>(info[0].As<Napi::Number>().Int64Value());
    engine()->Cancel(session);
    ReleaseSession(session);
  }
  return info.Env().Undefined();
}

Napi::Value IcmpEngineWrap::Close(const Napi::CallbackInfo& info) {
  const bool had_sessions = !callbacks_.empty();
  Shutdown();
  if (had_sessions) Unref();
  return info.Env().Undefined();
}

Napi::Value IcmpEngineWrap::SocketKinds(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  if (engine() == nullptr) throw StatusError(env, Status::kEngineClosed);
  Napi::Object o = Napi::Object::New(env);
  o.Set("v4", FamilyObject(env, engine()->state(Family::kV4)));
  o.Set("v6", FamilyObject(env, engine()->state(Family::kV6)));
  return o;
}

Napi::Value IcmpEngineWrap::Stats(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  Napi::Object o = Napi::Object::New(env);
  if (engine() == nullptr) return o;
  for (Family f : {Family::kV4, Family::kV6}) {
    const FamilyState st = engine()->state(f);
    Napi::Object fo = Napi::Object::New(env);
    fo.Set("inFlight", static_cast<double>(st.in_flight));
    fo.Set("drops", static_cast<double>(st.drops));
    fo.Set("stray", static_cast<double>(st.stray));
    fo.Set("strayErrors", static_cast<double>(st.stray_errors));
    fo.Set("sent", static_cast<double>(st.sent));
    o.Set(f == Family::kV4 ? "v4" : "v6", fo);
  }
  o.Set("sessions", static_cast<double>(engine()->sessions()));
  return o;
}

void IcmpEngineWrap::Deliver(uint64_t session, PingResult&& result) {
  auto it = callbacks_.find(session);
  if (it == callbacks_.end()) return;
  Napi::FunctionReference cb = std::move(it->second);
  ReleaseSession(session);
  Napi::Env env = env_;
  Napi::HandleScope scope(env);
  auto [numbers, texts] = writer_.Packed(env, result);
  try {
    // MakeCallback runs the microtask queue afterwards, so promises settled in the callback resolve now.
    cb.MakeCallback(Value(), {numbers, texts}, context_);
  } catch (const Napi::Error& e) {
    napi_fatal_exception(env, e.Value());
  }
}

void IcmpEngineWrap::Progress(uint64_t session, uint32_t index, const EchoOutcome& outcome) {
  auto it = progress_.find(session);
  if (it == progress_.end()) return;
  Napi::Env env = env_;
  Napi::HandleScope scope(env);
  // A handle of our own: the call may cancel the session, which frees the reference.
  Napi::Function cb = it->second.Value();
  auto [numbers, texts] = writer_.PackedEcho(env, outcome);
  try {
    cb.MakeCallback(Value(), {Napi::Number::New(env, index), numbers, texts}, context_);
  } catch (const Napi::Error& e) {
    napi_fatal_exception(env, e.Value());
  }
}

}  // namespace

Napi::Function DefineIcmpEngine(Napi::Env env) { return IcmpEngineWrap::Define(env); }

}  // namespace nettools::icmp
