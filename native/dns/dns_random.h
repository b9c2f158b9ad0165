// Transaction IDs from the kernel CSPRNG: predictable IDs make off-path spoofing easy.
#pragma once

#include <cstdint>

#include "dns/dns_status.h"

namespace nettools::dns {

Status RandomId(uint16_t* out);

}  // namespace nettools::dns
