// The libuv handles (by address) this addon owns on the current thread's loop, so that a teardown sweep of the
// loop (worker_teardown.cc) leaves them to their owners' own close paths.
#pragma once

namespace nettools {

void ClaimHandle(const void* handle);
void ReleaseHandle(const void* handle);
bool IsOwnHandle(const void* handle);

}  // namespace nettools
