// The one source of unpredictable bytes: the kernel CSPRNG through getrandom. Off-path spoofers must not
// guess DNS transaction IDs, raw ICMP identifiers or echo payload cookies.
// Pure C++ (no Node headers, no libuv).
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>

namespace nettools {

// CSPRNG bytes fetched a block at a time: one getrandom call per 512 bytes instead of one per draw.
// Each byte is handed out once and none is derived from another, so buffering adds no predictability.
// Never blocks: every call fails (returns false) only while the kernel pool is not yet seeded at boot.
class RandomPool {
 public:
  bool Fill(uint8_t* out, size_t n);
  bool U16(uint16_t* out);

 private:
  static constexpr size_t kBlock = 512;
  std::array<uint8_t, kBlock> buf_{};
  size_t pos_ = kBlock;
};

}  // namespace nettools
