// DNS messages over a byte stream (RFC 1035 4.2.2, RFC 7766 8): each one behind a 2-byte length. The
// stream of a DoT connection carries many answers, in any order, cut anywhere by TLS records and reads.
// Pure C++: the fuzz target links it without Node.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace nettools::dns {

// The query as it goes on a stream: its length, then the message.
std::vector<uint8_t> FrameMessage(const std::vector<uint8_t>& message);

class StreamFrames {
 public:
  // A length prefix can say no more than this, so one message never needs more.
  static constexpr size_t kMaxMessage = 65535;
  // What one Append may add: a TLS record's plaintext is at most 16 KiB.
  static constexpr size_t kMaxChunk = 16 * 1024;
  // An unfinished message and one chunk: the buffer never holds more.
  static constexpr size_t kMaxBuffered = 2 + kMaxMessage + kMaxChunk;

  // Adds stream bytes; false (nothing added) when `size` is over kMaxChunk or the buffer would pass
  // kMaxBuffered, which a reader that takes every whole message after each Append never sees.
  bool Append(const uint8_t* data, size_t size);
  // The next whole message, in place until the next Append; false when none is complete yet.
  bool Next(const uint8_t** message, size_t* size);
  size_t buffered() const { return bytes_.size() - head_; }

 private:
  std::vector<uint8_t> bytes_;
  size_t head_ = 0;  // where the first message not yet taken starts
};

}  // namespace nettools::dns
