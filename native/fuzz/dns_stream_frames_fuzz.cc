// Hostile DoT stream bytes against the length framing: cut into chunks anywhere (as TLS records and reads
// cut them), the messages it hands on must be exactly those a one-pass parse of the whole stream finds,
// each inside what was appended, and the buffer must never pass its bound.
// fuzz-sources: dns/dns_stream_frames.cc
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <vector>

#include "dns/dns_stream_frames.h"

using nettools::dns::StreamFrames;

namespace {

// The stream read whole: each complete length-prefixed message, in order.
std::vector<std::vector<uint8_t>> Reference(const uint8_t* data, size_t size) {
  std::vector<std::vector<uint8_t>> out;
  size_t pos = 0;
  while (size - pos >= 2) {
    const size_t length = (static_cast<size_t>(data[pos]) << 8) | data[pos + 1];
    if (size - pos - 2 < length) break;
    out.emplace_back(data + pos + 2, data + pos + 2 + length);
    pos += 2 + length;
  }
  return out;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size < 1) return 0;
  // The first byte sets the chunk sizes: 1 to 256 bytes, so messages are cut at every place.
  const size_t chunk = static_cast<size_t>(data[0]) + 1;
  const uint8_t* stream = data + 1;
  const size_t length = size - 1;
  const std::vector<std::vector<uint8_t>> expected = Reference(stream, length);
  StreamFrames frames;
  size_t got = 0;
  for (size_t pos = 0; pos < length; pos += chunk) {
    const size_t n = length - pos < chunk ? length - pos : chunk;
    if (!frames.Append(stream + pos, n)) abort();  // every whole message is taken after each append
    if (frames.buffered() > StreamFrames::kMaxBuffered) abort();
    const uint8_t* message = nullptr;
    size_t message_size = 0;
    while (frames.Next(&message, &message_size)) {
      if (got >= expected.size()) abort();
      const std::vector<uint8_t>& want = expected[got++];
      if (message_size != want.size()) abort();
      for (size_t i = 0; i < message_size; ++i) {
        if (message[i] != want[i]) abort();
      }
    }
  }
  if (got != expected.size()) abort();
  // A chunk over the bound is refused whole.
  std::vector<uint8_t> big(StreamFrames::kMaxChunk + 1, 0);
  if (frames.Append(big.data(), big.size())) abort();
  return 0;
}
