#include "dns/dns_random.h"

#include <sys/random.h>

#include <cerrno>

namespace nettools::dns {

Status RandomId(uint16_t* out) {
  uint8_t buf[2];
  for (;;) {
    // GRND_NONBLOCK: never stall the event loop; it only fails before the pool is first seeded at boot.
    ssize_t n = getrandom(buf, sizeof(buf), GRND_NONBLOCK);
    if (n == static_cast<ssize_t>(sizeof(buf))) break;
    if (n < 0 && errno == EINTR) continue;
    return Status::kRandomUnavailable;
  }
  *out = static_cast<uint16_t>((buf[0] << 8) | buf[1]);
  return Status::kOk;
}

}  // namespace nettools::dns
