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

  void Deliver(uint64_t session, icmp::PingResult&& result);
  void Shutdown();
  void ReleaseSession(uint64_t session);
  static void CleanupHook(void* arg);

  Napi::Env env_;
  icmp::Engine* engine_ = nullptr;
  std::unordered_map<uint64_t, Napi::FunctionReference> callbacks_;
  Napi::AsyncContext context_;
  bool hook_registered_ = false;
};

}  // namespace nettools
