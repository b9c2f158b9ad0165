// Lets a worker thread end abruptly (out of memory, terminated) without ending the whole process.
#pragma once

#include <napi.h>

namespace nettools {

// JS: closeStrayPollsAtTeardown(). Call once from a worker thread at its start.
Napi::Value CloseStrayPollsAtTeardown(const Napi::CallbackInfo& info);

}  // namespace nettools
