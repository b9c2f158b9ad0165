#include "dns/dns_engine_binding.h"

#include "dns/dns_rdata.h"

#include <uv.h>

#include <algorithm>
#include <cstring>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

#include "common/args.h"
#include "common/limits_js.h"
#include "common/status_error.h"
#include "common/teardown_hook.h"
#include "dns/dns_edns.h"
#include "dns/dns_engine.h"
#include "dns/dns_limits.h"
#include "dns/dns_outcome_js.h"

namespace nettools::dns {

namespace {

// A short string copied into `buf` as UTF-8 (NUL-terminated) without a heap allocation; false when `v` is
// not a string or does not fit, so a longer one is rejected, never cut. UTF-8, not Latin-1: Latin-1 would
// keep only the low byte of each character, and a non-ASCII character could read as a '.' or a digit.
template <size_t N>
bool ShortString(Napi::Value v, char (&buf)[N]) {
  if (!v.IsString()) return false;
  size_t length = 0;
  if (napi_get_value_string_utf8(v.Env(), v, buf, N, &length) != napi_ok) return false;
  return length < N - 1;
}

bool TypeFromValue(Napi::Value v, uint16_t* out) {
  char name[8];
  if (!ShortString(v, name)) return false;
  return TypeFromName(name, out);
}

// A resolver as queries go to it: its socket address and, for DoT, the name its certificate must be
// valid for.
struct ResolverEndpoint {
  sockaddr_storage server{};
  std::string tls_name;
};

// A DoT resolver's `tlsName`: absent for UDP; otherwise a host name of 1..253 bytes.
bool ReadTlsName(Napi::Value v, std::string* out) {
  out->clear();
  if (v.IsUndefined() || v.IsNull()) return true;
  char name[254];
  if (!ShortString(v, name) || name[0] == '\0') return false;
  *out = name;
  return true;
}

bool ParseEndpoint(Napi::Value address_v, uint32_t port, sockaddr_storage* out) {
  if (port == 0 || port > 65535) return false;
  char address[64];  // the longest IPv6 text with a zone fits; anything longer is no address
  if (!ShortString(address_v, address)) return false;
  // Literal parsing only: these never consult a resolver.
  if (uv_ip4_addr(address, static_cast<int>(port), reinterpret_cast<sockaddr_in*>(out)) == 0) return true;
  return uv_ip6_addr(address, static_cast<int>(port), reinterpret_cast<sockaddr_in6*>(out)) == 0;
}

// The ECS payload for an address literal and a prefix length; false when either is no such thing.
bool ParseSubnet(Napi::Value address_v, Napi::Value prefix_v, std::string* out) {
  char address[64];
  if (!ShortString(address_v, address) || !prefix_v.IsNumber()) return false;
  const uint32_t prefix = prefix_v.As<Napi::Number>().Uint32Value();
  uint8_t bytes[16];
  size_t size = 0;
  if (uv_inet_pton(AF_INET, address, bytes) == 0) size = 4;
  else if (uv_inet_pton(AF_INET6, address, bytes) == 0) size = 16;
  if (size == 0 || prefix > size * 8) return false;
  *out = SubnetOption(bytes, size, static_cast<uint8_t>(prefix));
  return !out->empty();
}

// DnsEngine.limits: dns_limits.h for TypeScript.
constexpr NamedRange kLimits[] = {{"windowPerResolver", limits::kWindowPerResolver}};

// One JS call's queries: every (resolver, type) pair of a request, answered by one callback.
struct Batch {
  Napi::FunctionReference callback;
  Napi::FunctionReference progress;  // empty unless asked for: then each outcome is also told as it settles
  std::vector<QueryOutcome> outcomes;
  std::vector<uint32_t> queries;  // engine ids; 0 once that slot has its outcome
  size_t remaining = 0;
};

class DnsEngineWrap : public Napi::ObjectWrap<DnsEngineWrap> {
 public:
  static Napi::Function Define(Napi::Env env) {
    return DefineClass(env, "DnsEngine",
                       {
                           InstanceMethod("endpoint", &DnsEngineWrap::Endpoint),
                           InstanceMethod("queryMany", &DnsEngineWrap::QueryMany),
                           InstanceMethod("cancel", &DnsEngineWrap::Cancel),
                           InstanceMethod("counters", &DnsEngineWrap::Counters),
                           InstanceMethod("close", &DnsEngineWrap::Close),
                           InstanceMethod("ageSockets", &DnsEngineWrap::AgeSockets),
                           StaticValue("limits", LimitsObject(env, kLimits), napi_enumerable),
                       });
  }

  explicit DnsEngineWrap(const Napi::CallbackInfo& info)
      : Napi::ObjectWrap<DnsEngineWrap>(info), async_(info.Env(), "nettools:DnsEngine"), writer_(info.Env()) {
    Napi::Env env = info.Env();
    uv_loop_t* loop = EventLoopOrThrow(env, Status::kNoEventLoop);
    // new DnsEngine(windowPerResolver?): this engine's share of the per-resolver window.
    const Args args(info, Status::kInvalidArgument);
    const Range& range = limits::kWindowPerResolver;
    const uint32_t window = args.UintOr(0, "windowPerResolver", range.max);
    if (!range.contains(window)) {
      throw args.Invalid("windowPerResolver must be " + std::to_string(range.min) + " to " + std::to_string(range.max));
    }
    // new DnsEngine(windowPerResolver?, tlsCaFile?): the PEM trust anchors DoT resolvers may chain to
    // besides the system's.
    std::string ca_file;
    if (!args.Absent(1)) {
      if (!args[1].IsString()) throw args.Invalid("tlsCaFile must be a path");
      ca_file = args[1].As<Napi::String>().Utf8Value();
    }
    // Environment teardown waits for the engine's close callbacks (common/teardown_hook.h): the engine
    // holds the hook until it shuts down, each of its closing handles until libuv is done with it.
    auto core = std::make_shared<std::weak_ptr<EngineCore>>();
    auto hook = TeardownHook::Register(env, [core] {
      if (auto c = core->lock()) c->Shutdown();
    });
    core_ = std::make_shared<EngineCore>(loop, [this](uint32_t id, QueryOutcome& o) { OnDone(id, o); }, hook, window, std::move(ca_file));
    *core = core_;
  }

  ~DnsEngineWrap() override { Shutdown(); }

 private:
  void Shutdown() {
    closed_ = true;
    core_->Shutdown();
  }

  void CheckOpen(Napi::Env env) const {
    if (closed_) throw StatusError(env, Status::kEngineClosed);
  }

  // Starts one slot of a batch; a query that cannot start gets its outcome at once.
  void StartSlot(Batch* batch, uint32_t batch_id, size_t slot, QuerySpec& q, Status parsed) {
    Status s = parsed;
    uint32_t id = 0;
    if (s == Status::kOk) s = core_->Start(q, &id);
    if (s != Status::kOk) {
      batch->outcomes[slot].status = s;
      return;
    }
    batch->queries[slot] = id;
    batch->remaining++;
    slots_.emplace(id, Slot{batch_id, static_cast<uint32_t>(slot)});
  }

  // Registers the batch, or delivers it at once when no query could start.
  Napi::Value Launch(Napi::Env env, std::unique_ptr<Batch> batch, uint32_t batch_id) {
    if (batch->remaining == 0) {
      const PackedValues packed = writer_.Packed(batch->outcomes);
      batch->callback.Call(env.Undefined(), packed.count, packed.values);
      return Napi::Number::New(env, 0);
    }
    batches_.emplace(batch_id, std::move(batch));
    // Pending callbacks need this object alive even if JS drops every reference to it.
    if (!refd_) {
      Ref();
      refd_ = true;
    }
    return Napi::Number::New(env, batch_id);
  }

  // The optional arguments after progress: dnssec (boolean), then an ECS address and prefix length.
  static void ReadEdnsArgs(const Args<Status>& args, const char* usage, QuerySpec* q) {
    if (!args.Absent(6)) {
      if (!args[6].IsBoolean()) throw args.Invalid(usage);
      q->dnssec = args[6].As<Napi::Boolean>().Value();
    }
    if (args.Absent(7)) return;
    if (args.size() < 9 || !ParseSubnet(args[7], args[8], &q->subnet)) throw args.Invalid(usage);
  }

  uint32_t NextBatchId() {
    uint32_t id = next_batch_++;
    if (next_batch_ == 0) next_batch_ = 1;
    return id;
  }

  // endpoint(address, port, tlsName?): the number queryMany takes for this resolver (tlsName: DoT, the
  // certificate checked against it), or 0 when the address, port or name is no such thing (that
  // resolver's queries are then invalid-address outcomes). Read and parsed once per resolver, not per
  // query: three reads by name and the address's parse were about 2 % of a dns request's instructions.
  // The same three give the same number; at most limits::kEndpoints distinct ones.
  Napi::Value Endpoint(const Napi::CallbackInfo& info) {
    Napi::Env env = info.Env();
    CheckOpen(env);
    const Args args(info, Status::kInvalidArgument);
    const uint32_t port = args[1].IsNumber() ? args[1].As<Napi::Number>().Uint32Value() : 0;
    ResolverEndpoint e;
    if (!ParseEndpoint(args[0], port, &e.server) || !ReadTlsName(args.Absent(2) ? env.Undefined() : args[2], &e.tls_name)) {
      return Napi::Number::New(env, 0);
    }
    // Keyed by the address's text as given: "::1" and "0::1" are two entries for one socket address,
    // which costs a slot, never a wrong answer.
    std::string key = args[0].As<Napi::String>().Utf8Value() + ' ' + std::to_string(port) + ' ' + e.tls_name;
    auto known = endpoint_ids_.find(key);
    if (known != endpoint_ids_.end()) return Napi::Number::New(env, known->second);
    if (endpoints_.size() >= limits::kEndpoints) {
      throw args.Invalid("an engine takes at most " + std::to_string(limits::kEndpoints) + " distinct resolvers");
    }
    endpoints_.push_back(std::move(e));
    const auto id = static_cast<uint32_t>(endpoints_.size());
    endpoint_ids_.emplace(std::move(key), id);
    return Napi::Number::New(env, id);
  }

  // queryMany(name, types, endpoints, timeoutMs, (...packed) => void, progress?, dnssec?, subnetAddress?,
  // subnetPrefix?): id, with endpoints the numbers endpoint() gave, one per resolver, and types
  // ['A', ...]. Positional, not one spec object: each named read would make
  // a key string. progress, a function or undefined, gets (index, ...packed) for each query the engine
  // settles, as it settles, index resolver-major and packed one outcome; before the callback. A pair that
  // cannot start is not told there (JS has its outcome in the callback).
  // One call and one callback for a whole request; the outcomes (OutcomeWriter::Packed) are
  // resolver-major (resolver i, type j at i * types.length + j). A pair that cannot start (bad
  // address, name or type) reports its error in place.
  Napi::Value QueryMany(const Napi::CallbackInfo& info) {
    Napi::Env env = info.Env();
    CheckOpen(env);
    static constexpr const char* kUsage =
        "queryMany(name, types, endpoints, timeoutMs, callback, progress?, dnssec?, subnetAddress?, subnetPrefix?) expects a string, two arrays, a number, one or two functions, a boolean, an address and a prefix length";
    const Args args(info, Status::kInvalidArgument);
    if (args.size() < 5 || !args[0].IsString() || !args[1].IsArray() || !args[2].IsArray() || !args[4].IsFunction()) {
      throw args.Invalid(kUsage);
    }
    const bool progress = args.OptionalFunction(5, kUsage);
    const uint32_t timeout_ms = args.Truncated(3, "timeoutMs");
    std::string name = args[0].As<Napi::String>().Utf8Value();
    Napi::Array types = args[1].As<Napi::Array>();
    Napi::Array resolvers = args[2].As<Napi::Array>();
    uint32_t n_types = types.Length();
    uint32_t n_resolvers = resolvers.Length();
    std::vector<uint16_t> type_codes(n_types, 0);
    std::vector<bool> type_ok(n_types, false);
    for (uint32_t j = 0; j < n_types; ++j) type_ok[j] = TypeFromValue(types.Get(j), &type_codes[j]);

    auto batch = std::make_unique<Batch>();
    batch->callback = Napi::Persistent(info[4].As<Napi::Function>());
    if (progress) batch->progress = Napi::Persistent(info[5].As<Napi::Function>());
    size_t total = static_cast<size_t>(n_resolvers) * n_types;
    batch->outcomes.resize(total);
    batch->queries.resize(total, 0);
    uint32_t batch_id = NextBatchId();
    QuerySpec q;
    q.name = std::move(name);
    q.timeout_ms = timeout_ms;
    ReadEdnsArgs(args, kUsage, &q);
    for (uint32_t i = 0; i < n_resolvers; ++i) {
      Napi::Value rv = resolvers.Get(i);
      const uint32_t endpoint = rv.IsNumber() ? rv.As<Napi::Number>().Uint32Value() : 0;
      const bool endpoint_ok = endpoint >= 1 && endpoint <= endpoints_.size();
      if (endpoint_ok) {
        q.server = endpoints_[endpoint - 1].server;
        q.tls_name = endpoints_[endpoint - 1].tls_name;
      }
      for (uint32_t j = 0; j < n_types; ++j) {
        q.type = type_codes[j];
        Status parsed = !endpoint_ok ? Status::kInvalidAddress : !type_ok[j] ? Status::kInvalidType : Status::kOk;
        StartSlot(batch.get(), batch_id, static_cast<size_t>(i) * n_types + j, q, parsed);
      }
    }
    return Launch(env, std::move(batch), batch_id);
  }

  // cancel(id): the batch's outcomes so far, packed like queryMany's (the callback's arguments in an
  // array), its unsettled queries as
  // cancelled with the packets they sent until now (a resend already out is charged all the same);
  // undefined if unknown.
  // The callback is not called for a cancelled batch.
  Napi::Value Cancel(const Napi::CallbackInfo& info) {
    Napi::Env env = info.Env();
    uint32_t id = info[0].ToNumber().Uint32Value();
    auto it = batches_.find(id);
    if (it == batches_.end()) return env.Undefined();
    std::unique_ptr<Batch> batch = std::move(it->second);
    batches_.erase(it);
    for (size_t i = 0; i < batch->queries.size(); ++i) {
      uint32_t q = batch->queries[i];
      if (q == 0) continue;
      slots_.erase(q);
      uint8_t sends = 0;
      core_->Cancel(q, &sends);
      batch->outcomes[i].status = Status::kCancelled;
      batch->outcomes[i].sends = sends;
    }
    Napi::Array result = writer_.Packed(batch->outcomes).AsArray(env);
    ReleaseIfIdle();
    return result;
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
    o.Set("openSockets", Napi::Number::New(env, static_cast<double>(core_->open_sockets())));
    o.Set("tlsConnections", Napi::Number::New(env, static_cast<double>(c.tls_connections)));
    o.Set("openTlsConnections", Napi::Number::New(env, static_cast<double>(core_->open_tls_connections())));
    return o;
  }

  // ageSockets(ms): see EngineCore::AgeSockets. For tests of the socket age limit.
  Napi::Value AgeSockets(const Napi::CallbackInfo& info) {
    Napi::Env env = info.Env();
    if (info.Length() < 1 || !info[0].IsNumber() || !(info[0].As<Napi::Number>().DoubleValue() >= 0)) {
      Napi::TypeError::New(env, "ageSockets(ms): ms must be a number >= 0").ThrowAsJavaScriptException();
      return env.Undefined();
    }
    core_->AgeSockets(static_cast<uint64_t>(std::min(info[0].As<Napi::Number>().DoubleValue(), 1e12)));
    return env.Undefined();
  }

  Napi::Value Close(const Napi::CallbackInfo& info) {
    Shutdown();
    slots_.clear();
    batches_.clear();
    ReleaseIfIdle();
    return info.Env().Undefined();
  }

  void OnDone(uint32_t id, QueryOutcome& outcome) {
    auto slot_it = slots_.find(id);
    if (slot_it == slots_.end()) return;
    Slot slot = slot_it->second;
    slots_.erase(slot_it);
    auto it = batches_.find(slot.batch);
    if (it == batches_.end()) return;
    Batch& batch = *it->second;
    batch.outcomes[slot.index] = std::move(outcome);
    batch.queries[slot.index] = 0;
    --batch.remaining;
    Napi::Env env = Env();
    Napi::HandleScope scope(env);
    if (!batch.progress.IsEmpty()) {
      Progress(env, batch, slot.index);
      // It may have cancelled the batch or closed the engine: look again.
      it = batches_.find(slot.batch);
      if (it == batches_.end()) return;
    }
    if (it->second->remaining > 0) return;
    std::unique_ptr<Batch> done = std::move(it->second);
    batches_.erase(it);
    const PackedValues result = writer_.Packed(done->outcomes);
    // MakeCallback, not Call: we are on a bare libuv callback, and promise jobs must run after it.
    try {
      done->callback.MakeCallback(Value(), result.count, result.values, async_);
    } catch (const Napi::Error& e) {
      napi_fatal_exception(env, e.Value());
    }
    ReleaseIfIdle();  // last: it may let the GC free this object
  }

  // One settled outcome to the batch's progress function, with its index in the batch.
  void Progress(Napi::Env env, const Batch& batch, uint32_t index) {
    // A handle of our own: the call may cancel the batch, which frees its references.
    Napi::Function fn = batch.progress.Value();
    const PackedValues one = writer_.Packed(&batch.outcomes[index], 1);
    const napi_value args[] = {Napi::Number::New(env, index), one.values[0], one.values[1], one.values[2]};
    try {
      fn.MakeCallback(Value(), one.count + 1, args, async_);
    } catch (const Napi::Error& e) {
      napi_fatal_exception(env, e.Value());
    }
  }

  void ReleaseIfIdle() {
    if (refd_ && batches_.empty()) {
      refd_ = false;
      Unref();
    }
  }

  struct Slot {
    uint32_t batch;
    uint32_t index;
  };

  std::shared_ptr<EngineCore> core_;
  std::unordered_map<uint32_t, std::unique_ptr<Batch>> batches_;
  std::unordered_map<uint32_t, Slot> slots_;  // engine query id -> its place in a batch
  std::vector<ResolverEndpoint> endpoints_;   // endpoint() number n is endpoints_[n - 1]
  std::unordered_map<std::string, uint32_t> endpoint_ids_;
  uint32_t next_batch_ = 1;
  Napi::AsyncContext async_;
  OutcomeWriter writer_;
  bool closed_ = false;
  bool refd_ = false;
};

}  // namespace

Napi::Function DefineDnsEngine(Napi::Env env) { return DnsEngineWrap::Define(env); }

}  // namespace nettools::dns
