// The only way network bytes are read, by every engine: each read is bounds-checked and reports overrun
// as failure, so a truncated or hostile packet can never make a parser index past what it was handed.
// Pure C++ and header-only, so the fuzz targets need no extra source for it.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

namespace nettools {

class Reader {
 public:
  Reader(const uint8_t* data, size_t size) : data_(data), size_(size) {}

  // Network byte order.
  bool u8(uint8_t* out) {
    if (remaining() < 1) return false;
    *out = data_[pos_++];
    return true;
  }

  bool u16(uint16_t* out) {
    if (remaining() < 2) return false;
    *out = static_cast<uint16_t>((data_[pos_] << 8) | data_[pos_ + 1]);
    pos_ += 2;
    return true;
  }

  bool u32(uint32_t* out) {
    if (remaining() < 4) return false;
    *out = (static_cast<uint32_t>(data_[pos_]) << 24) | (static_cast<uint32_t>(data_[pos_ + 1]) << 16) |
           (static_cast<uint32_t>(data_[pos_ + 2]) << 8) | static_cast<uint32_t>(data_[pos_ + 3]);
    pos_ += 4;
    return true;
  }

  bool skip(size_t n) {
    if (remaining() < n) return false;
    pos_ += n;
    return true;
  }

  // Copies the next n bytes into dst, which must hold n.
  bool copy(size_t n, uint8_t* dst) {
    if (remaining() < n) return false;
    for (size_t i = 0; i < n; ++i) dst[i] = data_[pos_ + i];
    pos_ += n;
    return true;
  }

  bool bytes(size_t n, std::string* out) {
    if (remaining() < n) return false;
    out->assign(reinterpret_cast<const char*>(data_ + pos_), n);
    pos_ += n;
    return true;
  }

  // Moves anywhere inside the readable window; DNS compression pointers use it.
  bool seek(size_t pos) {
    if (pos > size_) return false;
    pos_ = pos;
    return true;
  }

  // A reader over the next n bytes (this one does not move). It still sees the bytes before its start,
  // with the same positions, so a DNS name inside RDATA can point back into the message.
  bool limit(size_t n, Reader* out) const {
    if (remaining() < n) return false;
    *out = Reader(data_, pos_ + n);
    out->pos_ = pos_;
    return true;
  }

  size_t pos() const { return pos_; }
  size_t size() const { return size_; }
  size_t remaining() const { return size_ - pos_; }

 private:
  const uint8_t* data_;
  size_t size_;
  size_t pos_ = 0;
};

}  // namespace nettools
