// The only way network bytes are read: every access is bounds-checked and reports overrun as failure,
// so a truncated or hostile packet can never make a parser index past what the kernel handed us.
#pragma once

#include <cstddef>
#include <cstdint>

namespace nettools {
namespace icmp {

class Reader {
 public:
  Reader(const uint8_t* data, size_t len) : data_(data), len_(len) {}

  size_t remaining() const { return len_ - pos_; }
  size_t position() const { return pos_; }

  bool u8(uint8_t* out) {
    if (remaining() < 1) return false;
    *out = data_[pos_++];
    return true;
  }

  // Network byte order.
  bool u16(uint16_t* out) {
    if (remaining() < 2) return false;
    *out = static_cast<uint16_t>((data_[pos_] << 8) | data_[pos_ + 1]);
    pos_ += 2;
    return true;
  }

  bool u32(uint32_t* out) {
    uint16_t hi = 0, lo = 0;
    if (remaining() < 4 || !u16(&hi) || !u16(&lo)) return false;
    *out = (static_cast<uint32_t>(hi) << 16) | lo;
    return true;
  }

  // Hands out a sub-reader over the next n bytes and moves past them.
  bool bytes(size_t n, Reader* out) {
    if (remaining() < n) return false;
    *out = Reader(data_ + pos_, n);
    pos_ += n;
    return true;
  }

  bool skip(size_t n) {
    if (remaining() < n) return false;
    pos_ += n;
    return true;
  }

  // Copies the next n bytes into dst (which must hold n).
  bool copy(size_t n, uint8_t* dst) {
    if (remaining() < n) return false;
    for (size_t i = 0; i < n; ++i) dst[i] = data_[pos_ + i];
    pos_ += n;
    return true;
  }

  // The rest of the input as a sub-reader (always succeeds).
  Reader rest() const { return Reader(data_ + pos_, remaining()); }

 private:
  const uint8_t* data_;
  size_t len_;
  size_t pos_ = 0;
};

}  // namespace icmp
}  // namespace nettools
