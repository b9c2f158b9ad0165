#include "icmp/icmp_engine_binding.h"

#include <cstdint>
#include <cstring>
#include <initializer_list>
#include <memory>
#include <string>
#include <unordered_map>
#include <utility>

#include "common/args.h"
#include "common/limits_js.h"
#include "common/status_error.h"
#include "common/teardown_hook.h"
#include "icmp/icmp_engine.h"
#include "icmp/icmp_limits.h"
#include "icmp/icmp_result_js.h"

namespace nettools::icmp {

namespace {

using IcmpArgs = Args<Status>;

// address (a Uint8Array of the address's 4 or 16 bytes: no text is parsed here) and family (4 or 6),
// the first two arguments of ping and trace.
void ReadTarget(const IcmpArgs& args, PingOptions* opts) {
  if (!args[0].IsTypedArray() || args[0].As<Napi::TypedArray>().TypedArrayType() != napi_uint8_array) {
    throw args.Invalid("address must be a Uint8Array of 4 or 16 bytes");
  }
  const uint32_t family = args.Uint(1, "family");
  if (family != 4 && family != 6) throw args.Invalid("family must be 4 or 6");
  const Napi::Uint8Array bytes = args[0].As<Napi::Uint8Array>();
  const Status set = SetAddress(family == 4 ? Family::kV4 : Family::kV6, bytes.Data(), bytes.ElementLength(), opts);
  if (set != Status::kOk) throw StatusError(args[0].Env(), set);
}

// new IcmpEngine(kind?, reports?): kind 'auto' (or absent), 'dgram' or 'raw'.
KindPreference ReadKind(const IcmpArgs& args) {
  if (args.Absent(0)) return KindPreference::kAuto;
  if (args[0].IsString()) {
    const std::string k = args[0].As<Napi::String>();
    if (k == "auto") return KindPreference::kAuto;
    if (k == "dgram") return KindPreference::kDgram;
    if (k == "raw") return KindPreference::kRaw;
  }
  throw args.Invalid("kind must be 'auto', 'dgram' or 'raw'");
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

// IcmpEngine.limits: the ranges of icmp_limits.h that TypeScript validates a ping with.
Napi::Object Limits(Napi::Env env) {
  const NamedRange entries[] = {
      {"count", limits::kCount}, {"intervalMs", limits::kIntervalMs}, {"timeoutMs", limits::kTimeoutMs},
      {"size", limits::kSize},   {"ttl", limits::kTtl},
  };
  return LimitsObject(env, entries);
}

class IcmpEngineWrap : public Napi::ObjectWrap<IcmpEngineWrap> {
 public:
  static Napi::Function Define(Napi::Env env);
  explicit IcmpEngineWrap(const Napi::CallbackInfo& info);
  ~IcmpEngineWrap() override;

 private:
  Napi::Value Ping(const Napi::CallbackInfo& info);
  Napi::Value Trace(const Napi::CallbackInfo& info);
  Napi::Value Begin(const Napi::CallbackInfo& info, const PingOptions& opts, size_t done_at, bool progress);
  Napi::Value Extend(const Napi::CallbackInfo& info);
  Napi::Value Cancel(const Napi::CallbackInfo& info);
  Napi::Value Close(const Napi::CallbackInfo& info);
  Napi::Value SocketKinds(const Napi::CallbackInfo& info);
  Napi::Value Stats(const Napi::CallbackInfo& info);

  void Deliver(uint64_t session, PingResult&& result);
  void Progress(uint64_t session, uint32_t index, const EchoOutcome& outcome);
  void FlushReports();
  bool ReadReport(const IcmpArgs& args, size_t i, const char* usage) const;
  void Shutdown();
  void StartClose();
  void ReleaseSession(uint64_t session);
  Engine* engine() const { return engine_; }

  Napi::Env env_;
  Engine* engine_ = nullptr;  // null once closing started
  // Held until the engine starts closing, then by its `closed` callback (common/teardown_hook.h).
  std::shared_ptr<TeardownHook> hook_;
  std::unordered_map<uint64_t, Napi::FunctionReference> callbacks_;
  // Called once per engine frame with every echo that frame decided for sessions started with `report`
  // (ResultWriter::Report): one call into JS for them all, not one each. Empty: no session may report.
  // Held weakly (see the constructor).
  Napi::FunctionReference reports_;
  bool flushing_ = false;
  Napi::AsyncContext context_;
  ResultWriter writer_;
};

Napi::Function IcmpEngineWrap::Define(Napi::Env env) {
  return DefineClass(env, "IcmpEngine",
                     {
                         InstanceMethod("ping", &IcmpEngineWrap::Ping),
                         InstanceMethod("trace", &IcmpEngineWrap::Trace),
                         InstanceMethod("extend", &IcmpEngineWrap::Extend),
                         InstanceMethod("cancel", &IcmpEngineWrap::Cancel),
                         InstanceMethod("close", &IcmpEngineWrap::Close),
                         InstanceMethod("socketKinds", &IcmpEngineWrap::SocketKinds),
                         InstanceMethod("stats", &IcmpEngineWrap::Stats),
                         StaticValue("limits", Limits(env), napi_enumerable),
                         StaticValue("statusNames", ReplyStatusNames(env), napi_enumerable),
                     });
}

IcmpEngineWrap::IcmpEngineWrap(const Napi::CallbackInfo& info)
    : Napi::ObjectWrap<IcmpEngineWrap>(info),
      env_(info.Env()),
      context_(info.Env(), "nettools:IcmpEngine"),
      writer_(info.Env()) {
  Napi::Env env = info.Env();
  const IcmpArgs args(info, Status::kInvalidOptions);
  const KindPreference pref = ReadKind(args);
  // Weak: the function's JS owner holds the engine, and a strong reference back would keep both alive
  // for good once dropped. The owner keeps the function for as long as it may report.
  if (args.OptionalFunction(1, "new IcmpEngine(kind?, reports?)")) reports_ = Napi::Weak(info[1].As<Napi::Function>());
  uv_loop_t* loop = EventLoopOrThrow(env, Status::kNoEventLoop);
  Engine* engine = nullptr;
  const Status created = Engine::Create(
      loop, pref, [this](uint64_t session, PingResult&& result) { Deliver(session, std::move(result)); },
      &engine, [this](uint64_t session, uint32_t index, const EchoOutcome& o) { Progress(session, index, o); });
  if (created != Status::kOk) throw StatusError(env, created);
  engine->SetFrameEnd([this] { FlushReports(); });
  engine_ = engine;
  // At teardown the wrapper is still alive: its destructor starts closing, and disarms the hook then.
  hook_ = TeardownHook::Register(env, [this] { StartClose(); });
}

IcmpEngineWrap::~IcmpEngineWrap() { Shutdown(); }

void IcmpEngineWrap::StartClose() {
  Engine* engine = engine_;
  if (engine == nullptr) return;
  engine_ = nullptr;
  // From here on the hook waits only for the engine's handles, whose last close callback frees the
  // engine and then this `closed` function with the hook it holds.
  hook_->Disarm();
  engine->Close([hold = std::move(hook_)] {});
}

void IcmpEngineWrap::Shutdown() {
  StartClose();
  callbacks_.clear();
  // Reports of a closed engine's sessions go nowhere: closing settles every one of them.
  writer_.DropReports();
}

// While a ping is in flight the wrapper stays alive, so its callback can still be delivered.
void IcmpEngineWrap::ReleaseSession(uint64_t session) {
  if (callbacks_.erase(session) > 0 && callbacks_.empty()) Unref();
}

// The optional last argument of ping and trace: true to have each echo reported as it is decided, in the
// engine's reports (an engine made without a reports function refuses it).
bool IcmpEngineWrap::ReadReport(const IcmpArgs& args, size_t i, const char* usage) const {
  if (args.Absent(i)) return false;
  if (!args[i].IsBoolean()) throw args.Invalid(usage);
  const bool report = args[i].As<Napi::Boolean>().Value();
  if (report && reports_.IsEmpty()) throw args.Invalid("report: this engine was made without a reports function");
  return report;
}

// ping(address, family, count, intervalMs, timeoutMs, size, ttl, done, report?, grant?): positional, like
// every binding call (common/args.h). ttl -1 means the socket's default. With report true, each echo goes
// to the engine's reports function as it is decided, all of them before done. With grant below count, a
// metered ping (report true): only `grant` echoes go out until extend() allows more, and done lists none.
Napi::Value IcmpEngineWrap::Ping(const Napi::CallbackInfo& info) {
  if (engine() == nullptr) throw StatusError(info.Env(), Status::kEngineClosed);
  static constexpr const char* kUsage = "ping(address, family, count, intervalMs, timeoutMs, size, ttl, done, report?, grant?)";
  const IcmpArgs args(info, Status::kInvalidOptions);
  if (args.size() < 8 || !args[7].IsFunction()) throw args.Invalid(kUsage);
  const bool progress = ReadReport(args, 8, kUsage);
  PingOptions opts;
  opts.grant = args.UintOr(9, "grant", 0);
  ReadTarget(args, &opts);
  opts.count = args.Uint(2, "count");
  opts.interval_ms = args.Uint(3, "intervalMs");
  opts.timeout_ms = args.Uint(4, "timeoutMs");
  opts.size = args.Uint(5, "size");
  if (!(args[6].IsNumber() && args[6].As<Napi::Number>().DoubleValue() == -1)) {
    opts.has_ttl = true;
    opts.ttl = args.Uint(6, "ttl");
  }
  return Begin(info, opts, 7, progress);
}

// trace(address, family, maxHops, probesPerHop, timeoutMs, paceUs, size, done, report?): one session
// whose echo i goes out with TTL 1 + i / probesPerHop, paceUs apart; results and reports as for ping.
Napi::Value IcmpEngineWrap::Trace(const Napi::CallbackInfo& info) {
  if (engine() == nullptr) throw StatusError(info.Env(), Status::kEngineClosed);
  static constexpr const char* kUsage = "trace(address, family, maxHops, probesPerHop, timeoutMs, paceUs, size, done, report?)";
  const IcmpArgs args(info, Status::kInvalidOptions);
  if (args.size() < 8 || !args[7].IsFunction()) throw args.Invalid(kUsage);
  const bool progress = ReadReport(args, 8, kUsage);
  PingOptions opts;
  ReadTarget(args, &opts);
  const uint32_t hops = args.Uint(2, "maxHops");
  opts.probes_per_ttl = args.Uint(3, "probesPerHop");
  if (hops > limits::kTtl.max || opts.probes_per_ttl > limits::kProbesPerTtl.max) {
    throw StatusError(info.Env(), Status::kInvalidOptions);
  }
  opts.count = hops * opts.probes_per_ttl;
  opts.timeout_ms = args.Uint(4, "timeoutMs");
  opts.pace_us = args.Uint(5, "paceUs");
  opts.size = args.Uint(6, "size");
  return Begin(info, opts, 7, progress);
}

// Starts a session with the done function at info[done_at].
Napi::Value IcmpEngineWrap::Begin(const Napi::CallbackInfo& info, const PingOptions& opts, size_t done_at, bool progress) {
  Napi::Env env = info.Env();
  uint64_t session = 0;
  const Status started = engine()->Start(opts, &session, progress);
  if (started != Status::kOk) throw StatusError(env, started);
  if (callbacks_.empty()) Ref();
  callbacks_.emplace(session, Napi::Persistent(info[done_at].As<Napi::Function>()));
  return Napi::Number::New(env, static_cast<double>(session));
}

// extend(session, echoes): a metered ping may send that many more (Engine::Extend). Throws its Status.
Napi::Value IcmpEngineWrap::Extend(const Napi::CallbackInfo& info) {
  if (engine() == nullptr) throw StatusError(info.Env(), Status::kEngineClosed);
  const IcmpArgs args(info, Status::kInvalidOptions);
  if (args.size() < 2 || !args[0].IsNumber()) throw args.Invalid("extend(session, echoes)");
  const auto session = static_cast<uint64_t>(args[0].As<Napi::Number>().Int64Value());
  const Status extended = engine()->Extend(session, args.Uint(1, "echoes"));
  if (extended != Status::kOk) throw StatusError(info.Env(), extended);
  return info.Env().Undefined();
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
    fo.Set("traceSent", static_cast<double>(st.trace_sent));
    o.Set(f == Family::kV4 ? "v4" : "v6", fo);
  }
  o.Set("sessions", static_cast<double>(engine()->sessions()));
  return o;
}

void IcmpEngineWrap::Deliver(uint64_t session, PingResult&& result) {
  // Every echo reported before its ping's end: those this frame gathered go first (their calls may
  // close the engine, which settles this session another way).
  FlushReports();
  auto it = callbacks_.find(session);
  if (it == callbacks_.end()) return;
  Napi::FunctionReference cb = std::move(it->second);
  ReleaseSession(session);
  Napi::Env env = env_;
  Napi::HandleScope scope(env);
  const PackedValues packed = writer_.Packed(result);
  try {
    // MakeCallback runs the microtask queue afterwards, so promises settled in the callback resolve now.
    cb.MakeCallback(Value(), packed.count, packed.values, context_);
  } catch (const Napi::Error& e) {
    napi_fatal_exception(env, e.Value());
  }
}

// Gathered, not called: FlushReports hands the frame's reports to JS in one call.
void IcmpEngineWrap::Progress(uint64_t session, uint32_t index, const EchoOutcome& outcome) {
  if (engine_ == nullptr) return;
  writer_.Report(session, index, outcome);
}

// Runs at the end of each engine frame and before each done. JS reads the packed reports before it
// returns (they are in the writer's reused array); a report made while it runs (none is: starting,
// cancelling and closing decide no echo) would go in the next round of the loop, never over them.
void IcmpEngineWrap::FlushReports() {
  if (flushing_ || reports_.IsEmpty()) return;
  flushing_ = true;
  while (writer_.HasReports()) {
    Napi::Env env = env_;
    Napi::HandleScope scope(env);
    const PackedValues packed = writer_.FinishReports();
    const Napi::Function reports = reports_.Value();
    // Gone only with its owner, which then reads nothing more.
    if (reports.IsEmpty()) break;
    try {
      reports.MakeCallback(Value(), packed.count, packed.values, context_);
    } catch (const Napi::Error& e) {
      napi_fatal_exception(env, e.Value());
    }
  }
  flushing_ = false;
}

}  // namespace

Napi::Function DefineIcmpEngine(Napi::Env env) { return IcmpEngineWrap::Define(env); }

}  // namespace nettools::icmp
