// A worker thread that ends without a graceful shutdown leaves uWebSockets.js's sockets open on its
// loop: uWS registers no teardown of its own for them, and Node then aborts the whole process when it
// closes the thread's loop ("uv_loop_close() while having open handles"). So a worker that ran out of
// memory took every other worker and the supervisor with it.
//
// At the thread's environment teardown, after its JavaScript is gone, every poll handle still open
// and not this addon's own (the ICMP engine closes its sockets through its own finalizer) is closed,
// and its descriptor with it: a listen socket left open would stay in the port's SO_REUSEPORT group
// and be handed connections nobody accepts. The sockets' memory is uWS's and is left behind: a few
// hundred bytes per socket, once per dead worker.
#include "worker_teardown.h"

#include <unistd.h>
#include <uv.h>

#include "common/own_handles.h"

namespace nettools {

namespace {

void CloseIfStrayPoll(uv_handle_t* handle, void*) {
  if (handle->type != UV_POLL || uv_is_closing(handle) || IsOwnHandle(handle)) return;
  uv_os_fd_t fd = -1;
  const bool has_fd = uv_fileno(handle, &fd) == 0;
  uv_close(handle, nullptr);
  // uv_close has stopped watching the descriptor, so it can go now.
  if (has_fd && fd >= 0) close(fd);
}

void SweepLoop(void* arg) { uv_walk(static_cast<uv_loop_t*>(arg), CloseIfStrayPoll, nullptr); }

}  // namespace

Napi::Value CloseStrayPollsAtTeardown(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  thread_local bool registered = false;
  if (registered) return env.Undefined();
  uv_loop_t* loop = nullptr;
  if (napi_get_uv_event_loop(env, &loop) != napi_ok || loop == nullptr) {
    throw Napi::Error::New(env, "no event loop");
  }
  if (napi_add_env_cleanup_hook(env, SweepLoop, loop) != napi_ok) throw Napi::Error::New(env, "cannot add a cleanup hook");
  registered = true;
  return env.Undefined();
}

}  // namespace nettools
