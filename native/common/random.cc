#include "common/random.h"

#include <sys/random.h>

#include <cerrno>

namespace nettools {

namespace {

bool GetRandom(uint8_t* buf, size_t size) {
  size_t got = 0;
  while (got < size) {
    // GRND_NONBLOCK: never stall the event loop; it only fails before the pool is first seeded at boot.
    ssize_t n = getrandom(buf + got, size - got, GRND_NONBLOCK);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    got += static_cast<size_t>(n);
  }
  return true;
}

}  // namespace

bool RandomPool::Fill(uint8_t* out, size_t n) {
  // Larger than a block: straight from the kernel, the pool's bytes stay for later draws.
  if (n > kBlock) return GetRandom(out, n);
  if (kBlock - pos_ < n) {
    if (!GetRandom(buf_.data(), kBlock)) return false;
    pos_ = 0;
  }
  for (size_t i = 0; i < n; ++i) out[i] = buf_[pos_ + i];
  pos_ += n;
  return true;
}

bool RandomPool::U16(uint16_t* out) {
  uint8_t b[2];
  if (!Fill(b, sizeof(b))) return false;
  *out = static_cast<uint16_t>((b[0] << 8) | b[1]);
  return true;
}

}  // namespace nettools
