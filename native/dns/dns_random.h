// Transaction IDs from the kernel CSPRNG: predictable IDs make off-path spoofing easy.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>

#include "dns/dns_status.h"

namespace nettools::dns {

// CSPRNG bytes fetched a block at a time: one getrandom call per 256 IDs instead of one per ID.
// The bytes are used once each and never derived from one another, so buffering adds no predictability.
class IdPool {
 public:
  Status Next(uint16_t* out);

 private:
  std::array<uint8_t, 512> buf_{};
  size_t pos_ = 512;
};

}  // namespace nettools::dns
