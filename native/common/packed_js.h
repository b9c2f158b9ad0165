// The one packed form in which both engines hand results to JS (src/native/packed.ts reads it): JS builds
// object literals far faster than N-API sets properties one by one (ten named properties per echo were a
// visible share of a one-echo ping's CPU), numbers written into a typed array's memory cost nothing per number, and
// a slice of one string costs less than an N-API call per text.
//
// Two or three JS values, passed as a callback's arguments (two element writes through N-API cost more
// than the rest of the packing):
// - a Float64Array: how many numbers follow, then every number in order, copied into its memory at once.
//   A text stands in it where it belongs as a number: its length in the ASCII string (texts taken in
//   order), kOwnText for the next of the other texts, kNoText for none. An address stands in it as its
//   family (4 or 6, kNoText for none) followed by its bytes as big-endian 32-bit words (1 or 4): bytes
//   cross as bytes, and TypeScript makes their text once (src/native/packed.ts, PackedReader.optAddress).
// - one string holding every ASCII text back to back.
// - only when there are any, an array of the texts with other bytes, each a string of its own (V8 decodes
//   the UTF-8, turning bad sequences into U+FFFD, which a slice of a Latin-1 string could not).
// The Float64Array is the writer's own, reused by every packing that fits in it (making one per call,
// with its ArrayBuffer, cost more than all the numbers): JS reads it before it calls the engine again.
#pragma once

#include <napi.h>

#include "common/ip_bytes.h"

#include <cstddef>
#include <cstring>
#include <string>
#include <vector>

namespace nettools {

// Text markers in the numbers (a length >= 0 is a slice of the ASCII string).
constexpr double kOwnText = -1;
constexpr double kNoText = -2;

struct PackedValues {
  napi_value values[3] = {nullptr, nullptr, nullptr};
  size_t count = 0;  // 2, or 3 when there are other texts
  // For a caller that returns them instead of passing them as arguments (DNS cancel()).
  Napi::Array AsArray(Napi::Env env) const;
};

class PackedWriter {
 public:
  // `shared_numbers`: the size of the reused array; a packing with more numbers gets its own.
  PackedWriter(Napi::Env env, size_t shared_numbers);

  // Forgets the previous packing (its buffers are kept for the next).
  void Start();
  void Number(double v) { numbers_.push_back(v); }
  void Text(const char* data, size_t size);
  void Text(const std::string& s) { Text(s.data(), s.size()); }
  void Text(const char* s) { Text(s, std::strlen(s)); }
  void NoText() { Number(kNoText); }
  // Its family and bytes (see above), or kNoText for an empty one.
  void Address(const IpBytes& address);
  // The JS values of everything written since Start().
  PackedValues Finish();

  // What has been written since Start(), for a record that states its own size (ResultWriter::Report).
  size_t numbers_written() const { return numbers_.size(); }
  size_t ascii_written() const { return ascii_.size(); }
  size_t own_texts() const { return others_.size(); }
  // Rewrites number i (0: the first written since Start()): a size known only once the record is written.
  void SetNumber(size_t i, double v) { numbers_[i] = v; }

 private:
  Napi::Env env_;
  Napi::Reference<Napi::Float64Array> shared_;
  std::vector<double> numbers_;
  std::string ascii_;
  // Kept as bytes until Finish(): a packing may be written over several calls (a frame's reports), and a
  // JS value made on the way would not outlive the handle scope it was made in.
  std::vector<std::string> others_;
};

}  // namespace nettools
