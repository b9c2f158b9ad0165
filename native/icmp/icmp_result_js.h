// A ping's result, and one echo's outcome as it is decided, as JS values in the addon's one packed form
// (common/packed_js.h), which src/engines/icmp/unpack.ts turns back into objects.
// A result: echoes, duplicates, durationMs, then per echo (kPerEcho) status, rttMs, ttl, bytes, from,
// reason, ICMP type, ICMP code (of the answer: echo reply or error; a trace shows them); -1 stands for an
// absent number. One echo on the way: its kPerEcho numbers alone.
#pragma once

#include <napi.h>

#include "common/packed_js.h"
#include "icmp/icmp_engine.h"

namespace nettools::icmp {

// Numbers per echo in a packed result (src/engines/icmp/unpack.ts reads the same count).
constexpr size_t kPerEcho = 8;

// The status names, index = ReplyStatus value, for JS to name the numbers with.
Napi::Array ReplyStatusNames(Napi::Env env);

class ResultWriter {
 public:
  explicit ResultWriter(Napi::Env env) : packed_(env, kSharedNumbers) {}
  PackedValues Packed(const PingResult& result);
  PackedValues PackedEcho(const EchoOutcome& echo);

 private:
  // 64 echoes fit; a longer ping (up to 10,000) gets an array of its own.
  static constexpr size_t kSharedNumbers = 4 + kPerEcho * 64;
  void WriteEcho(const EchoOutcome& e);
  PackedWriter packed_;
};

}  // namespace nettools::icmp
