// The one place where an engine's Status becomes a JS error: its message (or a more precise detail) and
// its stable code as the `code` property. Each engine keeps its own Status enum and table; this finds
// their StatusCode / StatusMessage by argument-dependent lookup in the enum's namespace, so any engine
// that declares those two functions beside its Status can use it.
#pragma once

#include <napi.h>
#include <uv.h>

#include <string>

namespace nettools {

template <typename S>
Napi::Error StatusError(Napi::Env env, S s, const std::string& detail = std::string()) {
  Napi::Error e = Napi::Error::New(env, detail.empty() ? StatusMessage(s) : detail);
  e.Set("code", Napi::String::New(env, StatusCode(s)));
  return e;
}

// The environment's libuv loop, or a StatusError with `no_loop` (every engine names it `kNoEventLoop`,
// code `no-event-loop`).
template <typename S>
uv_loop_t* EventLoopOrThrow(Napi::Env env, S no_loop) {
  uv_loop_t* loop = nullptr;
  if (napi_get_uv_event_loop(env, &loop) != napi_ok || loop == nullptr) throw StatusError(env, no_loop);
  return loop;
}

}  // namespace nettools
