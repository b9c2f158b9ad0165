#include "dns/dns_random.h"

#include <sys/random.h>

#include <cerrno>

namespace nettools::dns {

namespace {

bool Fill(uint8_t* buf, size_t size) {
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

Status IdPool::Next(uint16_t* out) {
  if (pos_ + 2 > buf_.size()) {
    if (!Fill(buf_.data(), buf_.size())) return Status::kRandomUnavailable;
    pos_ = 0;
  }
  *out = static_cast<uint16_t>((buf_[pos_] << 8) | buf_[pos_ + 1]);
  pos_ += 2;
  return Status::kOk;
}

}  // namespace nettools::dns
