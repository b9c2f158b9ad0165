#include "dns/dns_stream_frames.h"

#include "common/reader.h"

namespace nettools::dns {

std::vector<uint8_t> FrameMessage(const std::vector<uint8_t>& message) {
  std::vector<uint8_t> out;
  out.reserve(message.size() + 2);
  out.push_back(static_cast<uint8_t>(message.size() >> 8));
  out.push_back(static_cast<uint8_t>(message.size() & 0xFF));
  out.insert(out.end(), message.begin(), message.end());
  return out;
}

bool StreamFrames::Append(const uint8_t* data, size_t size) {
  if (size > kMaxChunk || buffered() + size > kMaxBuffered) return false;
  // What was taken goes first, so the buffer holds only the unfinished message and the new bytes.
  if (head_ > 0) {
    bytes_.erase(bytes_.begin(), bytes_.begin() + static_cast<std::ptrdiff_t>(head_));
    head_ = 0;
  }
  bytes_.insert(bytes_.end(), data, data + size);
  return true;
}

bool StreamFrames::Next(const uint8_t** message, size_t* size) {
  Reader r(bytes_.data() + head_, buffered());
  uint16_t length = 0;
  if (!r.u16(&length) || r.remaining() < length) return false;
  *message = bytes_.data() + head_ + 2;
  *size = length;
  head_ += 2 + static_cast<size_t>(length);
  return true;
}

}  // namespace nettools::dns
