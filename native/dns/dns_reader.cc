#include "dns/dns_reader.h"

namespace nettools::dns {

bool Reader::u8(uint8_t* out) {
  if (remaining() < 1) return false;
  *out = data_[pos_++];
  return true;
}

bool Reader::u16(uint16_t* out) {
  if (remaining() < 2) return false;
  *out = static_cast<uint16_t>((data_[pos_] << 8) | data_[pos_ + 1]);
  pos_ += 2;
  return true;
}

bool Reader::u32(uint32_t* out) {
  if (remaining() < 4) return false;
  *out = (static_cast<uint32_t>(data_[pos_]) << 24) | (static_cast<uint32_t>(data_[pos_ + 1]) << 16) |
         (static_cast<uint32_t>(data_[pos_ + 2]) << 8) | static_cast<uint32_t>(data_[pos_ + 3]);
  pos_ += 4;
  return true;
}

bool Reader::bytes(size_t n, std::string* out) {
  if (remaining() < n) return false;
  out->assign(reinterpret_cast<const char*>(data_ + pos_), n);
  pos_ += n;
  return true;
}

bool Reader::skip(size_t n) {
  if (remaining() < n) return false;
  pos_ += n;
  return true;
}

bool Reader::seek(size_t pos) {
  if (pos > size_) return false;
  pos_ = pos;
  return true;
}

bool Reader::limit(size_t n, Reader* out) const {
  if (remaining() < n) return false;
  *out = Reader(data_, pos_ + n);
  out->pos_ = pos_;
  return true;
}

}  // namespace nettools::dns
