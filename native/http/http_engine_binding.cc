#include "http/http_engine_binding.h"

#include <openssl/ssl.h>

#include <array>
#include <cstdint>
#include <string>

#include "common/address_arg.h"
#include "common/args.h"
#include "common/ip_bytes.h"
#include "common/limits_js.h"
#include "common/one_shot_engine_wrap.h"
#include "common/status_error.h"
#include "http/http_exchange.h"
#include "http/http_limits.h"
#include "http/http_result_js.h"
#include "http/http_status.h"
#include "http/http_tls.h"

namespace nettools::http {

namespace {

using HttpArgs = Args<Status>;

Napi::Object Limits(Napi::Env env) {
  const NamedRange entries[] = {
      {"port", limits::kPort},
      {"timeoutMs", limits::kTimeoutMs},
      {"requestBytes", limits::kRequestBytes},
      {"bodyMaxBytes", limits::kBodyMaxBytes},
      {"serverNameBytes", limits::kServerNameBytes},
  };
  return LimitsObject(env, entries);
}

std::string StringArg(const HttpArgs& args, size_t i, const char* name) {
  if (!args[i].IsString()) throw args.Invalid(std::string(name) + " must be a string");
  return args[i].As<Napi::String>().Utf8Value();
}

bool BoolArg(const HttpArgs& args, size_t i, const char* name) {
  if (!args[i].IsBoolean()) throw args.Invalid(std::string(name) + " must be a boolean");
  return args[i].As<Napi::Boolean>().Value();
}

ExchangeSpec SpecOf(const HttpArgs& args) {
  ExchangeSpec spec;
  spec.address = AddressArg(args, 0, 1);
  const uint32_t port = args.Uint(2, "port");
  spec.timeout_ms = args.Uint(3, "timeoutMs");
  spec.tls = BoolArg(args, 4, "tls");
  spec.server_name = StringArg(args, 5, "serverName");
  spec.verify = BoolArg(args, 6, "verify");
  spec.request = StringArg(args, 7, "request");
  spec.head_request = BoolArg(args, 8, "headRequest");
  const uint32_t body_max = args.Uint(9, "bodyMax");
  if (!limits::kPort.contains(port) || !limits::kTimeoutMs.contains(spec.timeout_ms) ||
      !limits::kRequestBytes.contains(static_cast<uint32_t>(spec.request.size())) || !limits::kBodyMaxBytes.contains(body_max) ||
      !limits::kServerNameBytes.contains(static_cast<uint32_t>(spec.server_name.size()))) {
    throw args.Invalid("port, timeoutMs, request, bodyMax or serverName out of range");
  }
  spec.port = static_cast<uint16_t>(port);
  spec.body_max = body_max;
  return spec;
}

class HttpEngineWrap : public OneShotEngineWrap<HttpEngineWrap, Exchanger> {
 public:
  static Napi::Function Define(Napi::Env env) {
    return DefineClass(env, "HttpEngine",
                       {
                           InstanceMethod("exchange", &HttpEngineWrap::Exchange),
                           InstanceMethod("cancel", &HttpEngineWrap::Cancel),
                           InstanceMethod("close", &HttpEngineWrap::Close),
                           InstanceMethod("inFlight", &HttpEngineWrap::InFlight),
                           StaticValue("limits", Limits(env), napi_enumerable),
                       });
  }

  // new HttpEngine(pem): `pem` the trust anchors, every certificate of the store in one PEM text.
  explicit HttpEngineWrap(const Napi::CallbackInfo& info) : OneShotEngineWrap(info, "nettools:HttpEngine") {
    const HttpArgs args(info, Status::kInvalidArgument);
    if (args.size() < 1) throw args.Invalid("new HttpEngine(pem)");
    const std::string pem = StringArg(args, 0, "pem");
    uv_loop_t* loop = EventLoopOrThrow(info.Env(), Status::kNoEventLoop);
    SSL_CTX* ctx = NewCheckContext(pem);
    if (ctx == nullptr) throw StatusError(info.Env(), Status::kNoTrustAnchors);
    // The exchanger takes a reference of its own to the context; each connection one more.
    Own(new Exchanger(loop, ctx, [this](uint64_t id, const ExchangeResult& r) { Delivered(id, r); }));
    SSL_CTX_free(ctx);
  }

 private:
  // exchange(address, family, port, timeoutMs, tls, serverName, verify, request, headRequest, bodyMax,
  // done): done(result) comes once, never from inside exchange.
  Napi::Value Exchange(const Napi::CallbackInfo& info) {
    if (engine() == nullptr) throw StatusError(info.Env(), Status::kEngineClosed);
    const HttpArgs args(info, Status::kInvalidArgument);
    if (args.size() < 11 || !args[10].IsFunction()) {
      throw args.Invalid("exchange(address, family, port, timeoutMs, tls, serverName, verify, request, headRequest, bodyMax, done)");
    }
    const uint64_t id = engine()->Start(SpecOf(args));
    Started(id, args[10].As<Napi::Function>());
    return Napi::Number::New(info.Env(), static_cast<double>(id));
  }

  void Delivered(uint64_t id, const ExchangeResult& result) {
    Deliver<1>(id, [&result](Napi::Env env) { return std::array<napi_value, 1>{ResultObject(env, result)}; });
  }
};

}  // namespace

Napi::Function DefineHttpEngine(Napi::Env env) { return HttpEngineWrap::Define(env); }

}  // namespace nettools::http
