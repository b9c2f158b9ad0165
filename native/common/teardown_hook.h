// The one lifetime scheme of the addon's libuv handles. Their close callbacks live in this library, which
// an environment (a worker thread) unloads when it goes away; with a plain cleanup hook the library went
// first and the pending close callbacks jumped into unmapped code (a segfault when a worker was terminated
// mid-ping or mid-query). So every binding that owns handles registers an *async* environment cleanup
// hook through this, and Node waits until it is removed.
//
// Shared ownership says when: whoever may still have a close callback pending holds the
// shared_ptr (the engine until it starts closing, each closing handle until its close callback ran, or an
// engine's `closed` callback); the hook is removed when the last holder lets go. At teardown,
// `on_teardown` runs once to start closing what is still open, unless Disarm() forgot it first (its
// target is gone).
#pragma once

#include <napi.h>

#include <functional>
#include <memory>

namespace nettools {

class TeardownHook {
 public:
  static std::shared_ptr<TeardownHook> Register(Napi::Env env, std::function<void()> on_teardown);

  TeardownHook(const TeardownHook&) = delete;
  TeardownHook& operator=(const TeardownHook&) = delete;
  ~TeardownHook();

  void Disarm() { on_teardown_ = nullptr; }

 private:
  explicit TeardownHook(std::function<void()> on_teardown) : on_teardown_(std::move(on_teardown)) {}
  static void Run(napi_async_cleanup_hook_handle handle, void* arg);

  napi_async_cleanup_hook_handle handle_ = nullptr;
  std::function<void()> on_teardown_;
};

}  // namespace nettools
