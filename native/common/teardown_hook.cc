#include "common/teardown_hook.h"

namespace nettools {

std::shared_ptr<TeardownHook> TeardownHook::Register(Napi::Env env, std::function<void()> on_teardown) {
  std::shared_ptr<TeardownHook> hook(new TeardownHook(std::move(on_teardown)));
  // Without the hook (it cannot fail short of a broken environment) teardown simply does not wait.
  if (napi_add_async_cleanup_hook(env, &TeardownHook::Run, hook.get(), &hook->handle_) != napi_ok) {
    hook->handle_ = nullptr;
  }
  return hook;
}

TeardownHook::~TeardownHook() {
  if (handle_ != nullptr) napi_remove_async_cleanup_hook(handle_);
}

void TeardownHook::Run(napi_async_cleanup_hook_handle /*handle*/, void* arg) {
  auto* self = static_cast<TeardownHook*>(arg);
  // Taken out first: closing may release the last holder and free `self` while it runs.
  std::function<void()> on_teardown = std::move(self->on_teardown_);
  self->on_teardown_ = nullptr;
  if (on_teardown) on_teardown();
}

}  // namespace nettools
