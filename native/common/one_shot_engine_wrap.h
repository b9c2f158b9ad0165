// The JS face of an engine of one-shot operations (a TCP connect, an HTTP exchange), shared by their
// bindings: each operation starts with a done function and ends in one call of it; `cancel(id)` drops one,
// `inFlight()` counts them, `close()` ends them all. `Engine` has Cancel(id), in_flight() and
// Close(closed), and deletes itself once its last handle has closed after Close; until then the
// environment's teardown waits for it (TeardownHook).
#pragma once

#include <napi.h>

#include <cstddef>
#include <cstdint>
#include <memory>
#include <utility>

#include "common/pending_calls.h"
#include "common/teardown_hook.h"

namespace nettools {

template <typename Wrap, typename Engine>
class OneShotEngineWrap : public Napi::ObjectWrap<Wrap> {
 public:
  OneShotEngineWrap(const Napi::CallbackInfo& info, const char* resource)
      : Napi::ObjectWrap<Wrap>(info), env_(info.Env()), calls_(this), context_(info.Env(), resource) {}

  ~OneShotEngineWrap() override { Shutdown(); }

 protected:
  // The engine, once the derived constructor has made it; closed with the environment if not before.
  void Own(Engine* engine) {
    engine_ = engine;
    hook_ = TeardownHook::Register(env_, [this] { StartClose(); });
  }

  // Null once closing started.
  Engine* engine() const { return engine_; }

  void Started(uint64_t id, Napi::Function done) { calls_.Add(id, done); }

  template <size_t N, typename Make>
  void Deliver(uint64_t id, Make make) {
    calls_.template Deliver<N>(id, env_, context_, make);
  }

  Napi::Value Cancel(const Napi::CallbackInfo& info) {
    if (engine_ != nullptr && info.Length() > 0 && info[0].IsNumber()) {
      const auto id = static_cast<uint64_t>(info[0].As<Napi::Number>().Int64Value());
      engine_->Cancel(id);
      calls_.Release(id);
    }
    return info.Env().Undefined();
  }

  Napi::Value Close(const Napi::CallbackInfo& info) {
    Shutdown();
    return info.Env().Undefined();
  }

  Napi::Value InFlight(const Napi::CallbackInfo& info) {
    return Napi::Number::New(info.Env(), engine_ == nullptr ? 0 : static_cast<double>(engine_->in_flight()));
  }

 private:
  void StartClose() {
    Engine* engine = engine_;
    if (engine == nullptr) return;
    engine_ = nullptr;
    // From here the hook waits only for the engine's handles: its last close callback deletes it, then
    // this `closed` function with the hook it holds.
    hook_->Disarm();
    engine->Close([hold = std::move(hook_)] {});
  }

  void Shutdown() {
    StartClose();
    calls_.Clear();
  }

  Napi::Env env_;
  Engine* engine_ = nullptr;
  std::shared_ptr<TeardownHook> hook_;
  PendingCalls<Wrap> calls_;
  Napi::AsyncContext context_;
};

}  // namespace nettools
