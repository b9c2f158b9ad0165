#include "tcp/tcp_engine_binding.h"

#include <array>
#include <cstdint>
#include <memory>
#include <utility>

#include "common/address_arg.h"
#include "common/args.h"
#include "common/errno_name.h"
#include "common/ip_bytes.h"
#include "common/limits_js.h"
#include "common/pending_calls.h"
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
      : Napi::ObjectWrap<TcpEngineWrap>(info), env_(info.Env()), calls_(this), context_(info.Env(), "nettools:TcpEngine") {
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
    const IpBytes address = AddressArg(args, 0, 1);
    const uint32_t port = args.Uint(2, "port");
    const uint32_t timeout_ms = args.Uint(3, "timeoutMs");
    if (!limits::kPort.contains(port) || !limits::kTimeoutMs.contains(timeout_ms)) throw args.Invalid("port or timeoutMs out of range");
    const uint64_t id = connector_->Start(address, static_cast<uint16_t>(port), timeout_ms);
    calls_.Add(id, args[4].As<Napi::Function>());
    return Napi::Number::New(info.Env(), static_cast<double>(id));
  }

  Napi::Value Cancel(const Napi::CallbackInfo& info) {
    if (connector_ != nullptr && info.Length() > 0 && info[0].IsNumber()) {
      const auto id = static_cast<uint64_t>(info[0].As<Napi::Number>().Int64Value());
      connector_->Cancel(id);
      calls_.Release(id);
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
    calls_.Clear();
  }

  void Deliver(uint64_t id, const ConnectResult& result) {
    calls_.Deliver<3>(id, env_, context_, [&result](Napi::Env env) {
      return std::array<napi_value, 3>{
          Napi::String::New(env, OutcomeName(result.outcome)),
          Napi::Number::New(env, static_cast<double>(result.elapsed_ns)),
          ErrnoValue(env, result.error),
      };
    });
  }

  Napi::Env env_;
  Connector* connector_ = nullptr;  // null once closing started
  std::shared_ptr<TeardownHook> hook_;
  PendingCalls<TcpEngineWrap> calls_;
  Napi::AsyncContext context_;
};

}  // namespace

Napi::Function DefineTcpEngine(Napi::Env env) { return TcpEngineWrap::Define(env); }

}  // namespace nettools::tcp
