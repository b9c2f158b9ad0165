// An errno as JavaScript reports it: its symbolic name (ECONNRESET), or its number where glibc has none.
#pragma once

#include <cstring>
#include <string>

namespace nettools {

inline std::string ErrnoName(int error) {
  const char* name = error == 0 ? nullptr : strerrorname_np(error);
  return name != nullptr ? name : "errno " + std::to_string(error);
}

}  // namespace nettools
