// An IP address as the engines hand it back to JS: its 4 or 16 bytes in network order, as the kernel or
// the wire gave them. Text is made once, in TypeScript, where JSON is written; a value compares by its
// bytes (a trace's end, a dns answer's identity) without parsing text back.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>

namespace nettools {

struct IpBytes {
  uint8_t bytes[16] = {};
  uint8_t size = 0;  // 4, 16, or 0 for none

  // Any other length leaves the value empty: an address is 4 or 16 bytes or none at all.
  static IpBytes Of(const uint8_t* data, size_t length) {
    IpBytes out;
    if (data != nullptr && (length == 4 || length == 16)) {
      std::memcpy(out.bytes, data, length);
      out.size = static_cast<uint8_t>(length);
    }
    return out;
  }

  bool empty() const { return size == 0; }
};

}  // namespace nettools
