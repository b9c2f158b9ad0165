#include "tcp/tcp_engine_binding.h"

#include <cstdint>
#include <cstring>
#include <memory>
#include <string>
#include <unordered_map>
#include <utility>

#include "common/args.h"
#include "common/errno_name.h"
#include "common/ip_bytes.h"
#include "common/limits_js.h"
#include "common/status_error.h"
#include "common/teardown_hook.h"
#include "tcp/tcp_connector.h"
#include "tcp/tcp_limits.h"
#include "tcp/tcp_status.h"

namespace nettools::tcp {

namespace {

using TcpArgs = Args<Status>;

const char* OutcomeName(Outcome o) {
  switch (o) {
    case Outcome::kConnected:
      return "connected";
    case Outcome::kRefused:
      return "refused";
    case Outcome::kUnreachable:
      return "unreachable";
    case Outcome::kTimeout:
      return "timeout";
    case Outcome::kError:
      break;
  }
  return "error";
}

// The errno behind a failure, undefined for none.
Napi::Value ErrnoValue(Napi::Env env, int error) {
  if (error == 0) return env.Undefined();
  return Napi::String::New(env, ErrnoName(error));
}

Napi::Object Limits(Napi::Env env) {
  const NamedRange entries[] = {{"port", limits::kPort}, {"timeoutMs", limits::kTimeoutMs}};
  return LimitsObject(env, entries);
}

class TcpEngineWrap : public Napi::ObjectWrap<TcpEngineWrap> {
 public:
  static Napi::Function Define(Napi::Env env) {
    return DefineClass(env, "TcpEngine",
                       {
                           InstanceMethod("connect", &TcpEngineWrap::Connect),
                           InstanceMethod("cancel", &TcpEngineWrap::Cancel),
                           InstanceMethod("close", &TcpEngineWrap::Close),
                           InstanceMethod("inFlight", &TcpEngineWrap::InFlight),
                           StaticValue("limits", Limits(env), napi_enumerable),
                       });
  }

  explicit TcpEngineWrap(const Napi::CallbackInfo& info)
      : Napi::ObjectWrap<TcpEngineWrap>(info), env_(info.Env()), context_(info.Env(), "nettools:TcpEngine") {
    uv_loop_t* loop = EventLoopOrThrow(info.Env(), Status::kNoEventLoop);
    connector_ = new Connector(loop, [this](uint64_t id, const ConnectResult& r) { Deliver(id, r); });
    hook_ = TeardownHook::Register(info.Env(), [this] { StartClose(); });
  }

  ~TcpEngineWrap() override { Shutdown(); }

 private:
  // connect(address, family, port, timeoutMs, done): address the 4 or 16 bytes of an address of `family`
  // (no text is parsed here). done(outcome, elapsedNs, errnoName?) comes once, never from inside connect.
  Napi::Value Connect(const Napi::CallbackInfo& info) {
    if (connector_ == nullptr) throw StatusError(info.Env(), Status::kEngineClosed);
    const TcpArgs args(info, Status::kInvalidArgument);
    if (args.size() < 5 || !args[4].IsFunction()) throw args.Invalid("connect(address, family, port, timeoutMs, done)");
    if (!args[0].IsTypedArray() || args[0].As<Napi::TypedArray>().TypedArrayType() != napi_uint8_array) {
      throw args.Invalid("address must be a Uint8Array of 4 or 16 bytes");
    }
    const Napi::Uint8Array bytes = args[0].As<Napi::Uint8Array>();
    const uint32_t family = args.Uint(1, "family");
    const IpBytes address = IpBytes::Of(bytes.Data(), bytes.ElementLength());
    if (address.empty() || address.size != (family == 4 ? 4 : family == 6 ? 16 : 0)) {
      throw args.Invalid("address must be the 4 (family 4) or 16 (family 6) bytes of one address");
    }
    const uint32_t port = args.Uint(2, "port");
    const uint32_t timeout_ms = args.Uint(3, "timeoutMs");
    if (!limits::kPort.contains(port) || !limits::kTimeoutMs.contains(timeout_ms)) throw args.Invalid("port or timeoutMs out of range");
    const uint64_t id = connector_->Start(address, static_cast<uint16_t>(port), timeout_ms);
    // While an attempt is in flight the wrapper stays alive, so its result can still be delivered.
    if (callbacks_.empty()) Ref();
    callbacks_.emplace(id, Napi::Persistent(args[4].As<Napi::Function>()));
    return Napi::Number::New(info.Env(), static_cast<double>(id));
  }

  Napi::Value Cancel(const Napi::CallbackInfo& info) {
    if (connector_ != nullptr && info.Length() > 0 && info[0].IsNumber()) {
      const auto id = static_cast<uint64_t>(info[0].As<Napi::Number>().Int64Value());
      connector_->Cancel(id);
      Release(id);
    }
    return info.Env().Undefined();
  }

  Napi::Value Close(const Napi::CallbackInfo& info) {
    Shutdown();
    return info.Env().Undefined();
  }

  Napi::Value InFlight(const Napi::CallbackInfo& info) {
    return Napi::Number::New(info.Env(), connector_ == nullptr ? 0 : static_cast<double>(connector_->in_flight()));
  }

  void Release(uint64_t id) {
    if (callbacks_.erase(id) > 0 && callbacks_.empty()) Unref();
  }

  void StartClose() {
    Connector* connector = connector_;
    if (connector == nullptr) return;
    connector_ = nullptr;
    // From here the hook waits only for the attempts' handles: the connector's last close callback
    // deletes it, then this `closed` function with the hook it holds.
    hook_->Disarm();
    connector->Close([hold = std::move(hook_)] {});
  }

  void Shutdown() {
    StartClose();
    if (!callbacks_.empty()) {
      callbacks_.clear();
      Unref();
    }
  }

  void Deliver(uint64_t id, const ConnectResult& result) {
    auto it = callbacks_.find(id);
    if (it == callbacks_.end()) return;
    Napi::FunctionReference cb = std::move(it->second);
    Release(id);
    Napi::Env env = env_;
    Napi::HandleScope scope(env);
    const napi_value args[] = {
        Napi::String::New(env, OutcomeName(result.outcome)),
        Napi::Number::New(env, static_cast<double>(result.elapsed_ns)),
        ErrnoValue(env, result.error),
    };
    try {
      // MakeCallback, not Call: on a bare libuv callback, and promise jobs must run after it.
      cb.MakeCallback(Value(), 3, args, context_);
    } catch (const Napi::Error& e) {
      napi_fatal_exception(env, e.Value());
    }
  }

  Napi::Env env_;
  Connector* connector_ = nullptr;  // null once closing started
  std::shared_ptr<TeardownHook> hook_;
  std::unordered_map<uint64_t, Napi::FunctionReference> callbacks_;
  Napi::AsyncContext context_;
};

}  // namespace

Napi::Function DefineTcpEngine(Napi::Env env) { return TcpEngineWrap::Define(env); }

}  // namespace nettools::tcp
