#include "common/own_handles.h"

#include <unordered_set>

namespace nettools {

namespace {

// One loop per thread, so one set per thread: worker threads never see each other's handles.
std::unordered_set<const void*>& Owned() {
  thread_local std::unordered_set<const void*> owned;
  return owned;
}

}  // namespace

void ClaimHandle(const void* handle) { Owned().insert(handle); }

void ReleaseHandle(const void* handle) { Owned().erase(handle); }

bool IsOwnHandle(const void* handle) { return Owned().count(handle) != 0; }

}  // namespace nettools
