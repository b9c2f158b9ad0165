// The done functions of a wrapper's operations in flight, by id. While any is held the wrapper's JS object
// is referenced (ObjectWrap::Ref): it is not collected before its results are delivered. The last one
// delivered, cancelled or cleared lets it go.
#pragma once

#include <napi.h>

#include <array>
#include <cstddef>
#include <cstdint>
#include <unordered_map>
#include <utility>

namespace nettools {

template <typename Wrap>
class PendingCalls {
 public:
  explicit PendingCalls(Napi::ObjectWrap<Wrap>* wrap) : wrap_(wrap) {}

  void Add(uint64_t id, Napi::Function done) {
    if (calls_.empty()) wrap_->Ref();
    calls_.emplace(id, Napi::Persistent(done));
  }

  // Forgets id's function (a cancelled operation): no result of it reaches JS.
  void Release(uint64_t id) {
    if (calls_.erase(id) > 0 && calls_.empty()) wrap_->Unref();
  }

  void Clear() {
    if (calls_.empty()) return;
    calls_.clear();
    wrap_->Unref();
  }

  // Calls id's function once, with the N arguments make(env) builds in a scope of their own, and forgets
  // it; nothing when it was cancelled. MakeCallback, not Call: this runs on a bare libuv callback, and
  // promise jobs must run after it. A throw in the function is the process's uncaught exception.
  template <size_t N, typename Make>
  void Deliver(uint64_t id, Napi::Env env, const Napi::AsyncContext& context, Make make) {
    auto it = calls_.find(id);
    if (it == calls_.end()) return;
    Napi::FunctionReference done = std::move(it->second);
    Release(id);
    Napi::HandleScope scope(env);
    const std::array<napi_value, N> args = make(env);
    try {
      done.MakeCallback(wrap_->Value(), N, args.data(), context);
    } catch (const Napi::Error& e) {
      napi_fatal_exception(env, e.Value());
    }
  }

 private:
  Napi::ObjectWrap<Wrap>* wrap_;
  std::unordered_map<uint64_t, Napi::FunctionReference> calls_;
};

}  // namespace nettools
