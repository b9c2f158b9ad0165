#include "tcp/tcp_engine_binding.h"

#include <array>
#include <cstdint>

#include "common/address_arg.h"
#include "common/args.h"
#include "common/errno_name.h"
#include "common/ip_bytes.h"
#include "common/limits_js.h"
#include "common/one_shot_engine_wrap.h"
#include "common/status_error.h"
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

class TcpEngineWrap : public OneShotEngineWrap<TcpEngineWrap, Connector> {
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

  explicit TcpEngineWrap(const Napi::CallbackInfo& info) : OneShotEngineWrap(info, "nettools:TcpEngine") {
    uv_loop_t* loop = EventLoopOrThrow(info.Env(), Status::kNoEventLoop);
    Own(new Connector(loop, [this](uint64_t id, const ConnectResult& r) { Delivered(id, r); }));
  }

 private:
  // connect(address, family, port, timeoutMs, done): address the 4 or 16 bytes of an address of `family`
  // (no text is parsed here). done(outcome, elapsedNs, errnoName?) comes once, never from inside connect.
  Napi::Value Connect(const Napi::CallbackInfo& info) {
    if (engine() == nullptr) throw StatusError(info.Env(), Status::kEngineClosed);
    const TcpArgs args(info, Status::kInvalidArgument);
    if (args.size() < 5 || !args[4].IsFunction()) throw args.Invalid("connect(address, family, port, timeoutMs, done)");
    const IpBytes address = AddressArg(args, 0, 1);
    const uint32_t port = args.Uint(2, "port");
    const uint32_t timeout_ms = args.Uint(3, "timeoutMs");
    if (!limits::kPort.contains(port) || !limits::kTimeoutMs.contains(timeout_ms)) throw args.Invalid("port or timeoutMs out of range");
    const uint64_t id = engine()->Start(address, static_cast<uint16_t>(port), timeout_ms);
    Started(id, args[4].As<Napi::Function>());
    return Napi::Number::New(info.Env(), static_cast<double>(id));
  }

  void Delivered(uint64_t id, const ConnectResult& result) {
    Deliver<3>(id, [&result](Napi::Env env) {
      return std::array<napi_value, 3>{
          Napi::String::New(env, OutcomeName(result.outcome)),
          Napi::Number::New(env, static_cast<double>(result.elapsed_ns)),
          ErrnoValue(env, result.error),
      };
    });
  }
};

}  // namespace

Napi::Function DefineTcpEngine(Napi::Env env) { return TcpEngineWrap::Define(env); }

}  // namespace nettools::tcp
