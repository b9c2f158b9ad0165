// How both engines map a Status enum to its stable code and default message: one table per engine,
// indexed by the enum, checked at compile time to have exactly one entry per value.
#pragma once

#include <cstddef>

namespace nettools {

struct StatusEntry {
  const char* code;
  const char* message;
};

template <typename S, std::size_t N>
class StatusTable {
 public:
  constexpr explicit StatusTable(const StatusEntry (&entries)[N]) : entries_(entries) {
    static_assert(N == static_cast<std::size_t>(S::kCount), "every Status needs exactly one table entry");
  }

  const char* Code(S s) const {
    const StatusEntry* e = Lookup(s);
    return e != nullptr ? e->code : "unknown";
  }

  const char* Message(S s) const {
    const StatusEntry* e = Lookup(s);
    return e != nullptr ? e->message : "unknown error";
  }

 private:
  const StatusEntry* Lookup(S s) const {
    const int i = static_cast<int>(s);
    return (i >= 0 && i < static_cast<int>(N)) ? &entries_[i] : nullptr;
  }

  const StatusEntry (&entries_)[N];
};

}  // namespace nettools
