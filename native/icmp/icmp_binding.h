// JavaScript face of the ICMP engine: `new IcmpEngine({kind})`, `ping(options, callback)`, `cancel(id)`,
// `socketKinds()`, `stats()`, `close()`. Arguments are checked in TypeScript; this converts plain data.
#pragma once

#include <napi.h>

#include <cstdint>
#include <unordered_map>

#include "icmp/icmp_engine.h"

namespace nettools {

class IcmpEngine : public Napi::ObjectWrap<IcmpEngine> {
 public:
  static Napi::Function Init(Napi::Env env);
  explicit IcmpEngine(const Napi::CallbackInfo& info);
  ~IcmpEngine() override;

 private:
  Napi::Value Ping(const Napi::CallbackInfo& info);
  Napi::Value Cancel(const Napi::CallbackInfo& info);
  Napi::Value Close(const Napi::CallbackInfo& info);
  Napi::Value SocketKinds(const Napi::CallbackInfo& info);
  Napi::Value Stats(const Napi::CallbackInfo& info);

  // Outlives the wrapper when needed: libuv close callbacks live in this library, so the environment
  // must not finish tearing down (and unload us) before they ran. An async cleanup hook lets Node wait.
  struct Lifetime {
    icmp::Engine* engine = nullptr;  // null once closing started
    napi_async_cleanup_hook_handle hook = nullptr;
    bool closed = false;      // every handle released
    bool owner_gone = false;  // wrapper destroyed
  };

  void Deliver(uint64_t session, icmp::PingResult&& result);
  void Shutdown();
  void ReleaseSession(uint64_t session);
  icmp::Engine* engine() const { return life_->engine; }
  static void StartClose(Lifetime* life);
  static void AsyncCleanup(napi_async_cleanup_hook_handle handle, void* arg);

  Napi::Env env_;
  Lifetime* life_;
  std::unordered_map<uint64_t, Napi::FunctionReference> callbacks_;
  Napi::AsyncContext context_;
};

}  // namespace nettools
