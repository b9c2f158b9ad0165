// Bytes as lower-case hex, two digits a byte: a DNS record's digest or key data, a body's SHA-256.
// Header-only, so the fuzz targets need no extra source for it.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

namespace nettools {

inline std::string HexText(const uint8_t* bytes, size_t size) {
  static constexpr char kDigits[] = "0123456789abcdef";
  std::string out;
  out.reserve(size * 2);
  for (size_t i = 0; i < size; ++i) {
    out.push_back(kDigits[bytes[i] >> 4]);
    out.push_back(kDigits[bytes[i] & 0x0F]);
  }
  return out;
}

inline std::string HexText(const std::string& bytes) {
  return HexText(reinterpret_cast<const uint8_t*>(bytes.data()), bytes.size());
}

}  // namespace nettools
