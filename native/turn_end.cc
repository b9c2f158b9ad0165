// Why not setImmediate: uWebSockets.js (uSockets' libuv backend) frees the sockets closed in a loop turn
// from its own check handle, and libuv runs check handles last-started first. Node's setImmediate handle
// was started before uWS's, so a socket that a response closes from a setImmediate callback is closed
// after uWS's check has run: its uv_poll_t then finishes closing before uWS frees it, and uWS, seeing it
// "closing", leaves the freeing to a close callback that has already run. Both allocations leak, about
// 450 bytes per connection that ends with its response (Connection: close). This handle is started
// anew each time it is armed, so it runs before uWS's check in that turn. An idle handle keeps libuv from
// blocking in poll while armed, as Node's own setImmediate does.
#include "turn_end.h"

#include <uv.h>

#include <memory>

#include "common/teardown_hook.h"

namespace nettools {

namespace {

class TurnEndWrap;

// Owned by itself: libuv calls the close callbacks after the JS object may be gone.
struct TurnEndHandles {
  uv_check_t check;
  uv_idle_t idle;
  TurnEndWrap* owner = nullptr;
  bool closing = false;
  int open = 2;
  // Environment teardown (a worker ending) waits until both handles are closed (common/teardown_hook.h):
  // held until they are, then freed with them.
  std::shared_ptr<TeardownHook> hook;
};

void OnClosed(uv_handle_t* h) {
  auto* handles = static_cast<TurnEndHandles*>(h->data);
  if (--handles->open > 0) return;
  delete handles;
}

void Detach(TurnEndWrap* owner);

// From whichever comes first: the JS object's finalizer or environment teardown (the finalizer may
// run after teardown has freed the handles, so teardown detaches them from it).
void CloseHandles(TurnEndHandles* handles) {
  if (handles->closing) return;
  handles->closing = true;
  if (handles->owner != nullptr) Detach(handles->owner);
  handles->owner = nullptr;
  uv_check_stop(&handles->check);
  uv_idle_stop(&handles->idle);
  uv_close(reinterpret_cast<uv_handle_t*>(&handles->check), OnClosed);
  uv_close(reinterpret_cast<uv_handle_t*>(&handles->idle), OnClosed);
}

class TurnEndWrap : public Napi::ObjectWrap<TurnEndWrap> {
 public:
  static Napi::Function Define(Napi::Env env) {
    return DefineClass(env, "TurnEnd", {InstanceMethod("arm", &TurnEndWrap::Arm)});
  }

  explicit TurnEndWrap(const Napi::CallbackInfo& info)
      : Napi::ObjectWrap<TurnEndWrap>(info), context_(info.Env(), "nettools:TurnEnd") {
    Napi::Env env = info.Env();
    if (info.Length() < 1 || !info[0].IsFunction()) throw Napi::TypeError::New(env, "TurnEnd needs the function to call");
    uv_loop_t* loop = nullptr;
    if (napi_get_uv_event_loop(env, &loop) != napi_ok || loop == nullptr) throw Napi::Error::New(env, "no event loop for TurnEnd");
    callback_ = Napi::Persistent(info[0].As<Napi::Function>());
    handles_ = new TurnEndHandles();
    handles_->owner = this;
    uv_check_init(loop, &handles_->check);
    uv_idle_init(loop, &handles_->idle);
    handles_->check.data = handles_;
    handles_->idle.data = handles_;
    // The handles own the hook, so it never outlives them and may call into them.
    TurnEndHandles* handles = handles_;
    handles_->hook = TeardownHook::Register(env, [handles] { CloseHandles(handles); });
  }

  ~TurnEndWrap() override {
    if (handles_ == nullptr) return;
    handles_->owner = nullptr;
    CloseHandles(handles_);
  }

  void Detach() { handles_ = nullptr; }

 private:
  // Idempotent within a turn; the handle is started again (at the head of libuv's check queue) each time.
  Napi::Value Arm(const Napi::CallbackInfo& info) {
    if (!armed_ && handles_ != nullptr) {
      armed_ = true;
      uv_idle_start(&handles_->idle, [](uv_idle_t*) {});
      uv_check_start(&handles_->check, OnCheck);
    }
    return info.Env().Undefined();
  }

  static void OnCheck(uv_check_t* c) {
    auto* handles = static_cast<TurnEndHandles*>(c->data);
    uv_check_stop(&handles->check);
    uv_idle_stop(&handles->idle);
    if (handles->owner != nullptr) handles->owner->Fire();
  }

  void Fire() {
    armed_ = false;
    Napi::Env env = Env();
    Napi::HandleScope scope(env);
    // MakeCallback, not Call: on a bare libuv callback, and promise jobs must run after it.
    try {
      callback_.MakeCallback(Value(), {}, context_);
    } catch (const Napi::Error& e) {
      napi_fatal_exception(env, e.Value());
    }
  }

  Napi::FunctionReference callback_;
  Napi::AsyncContext context_;
  TurnEndHandles* handles_ = nullptr;
  bool armed_ = false;
};

void Detach(TurnEndWrap* owner) { owner->Detach(); }

}  // namespace

Napi::Function DefineTurnEnd(Napi::Env env) { return TurnEndWrap::Define(env); }

}  // namespace nettools
