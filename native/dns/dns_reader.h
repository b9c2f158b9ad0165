// The only way the DNS code reads network bytes: every read is bounds-checked and reports failure on overrun.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

namespace nettools::dns {

class Reader {
 public:
  Reader(const uint8_t* data, size_t size) : data_(data), size_(size) {}

  bool u8(uint8_t* out);
  bool u16(uint16_t* out);
  bool u32(uint32_t* out);
  bool bytes(size_t n, std::string* out);
  bool skip(size_t n);
  // Moves anywhere inside the readable window; compression pointers use it.
  bool seek(size_t pos);
  // A reader over the next n bytes that still sees the message before it, so names in RDATA can point back.
  bool limit(size_t n, Reader* out) const;

  size_t pos() const { return pos_; }
  size_t size() const { return size_; }
  size_t remaining() const { return size_ - pos_; }

 private:
  const uint8_t* data_;
  size_t size_;
  size_t pos_ = 0;
};

}  // namespace nettools::dns
