// A ping's result as JS values: two, which src/engines/icmp/unpack.ts turns back into objects (JS builds
// object literals far faster than N-API sets properties one by one: setting ten named properties per
// echo was 4-5% of a one-echo ping's CPU).
// First a Float64Array: echoes, duplicates, durationMs, then per echo status, rttMs, ttl, bytes, from,
// reason, ICMP type, ICMP code (of the answer: echo reply or error; a trace shows them); a text is its length in the second value, one string of every text back to back (addresses
// and fixed reasons: ASCII), and -1 stands for an absent number or text. The array is the writer's own,
// reused by every result that fits in it: JS reads it before it calls the engine again.
#pragma once

#include <napi.h>

#include <utility>

#include "icmp/icmp_engine.h"

namespace nettools::icmp {

// Numbers per echo in a packed result (src/engines/icmp/unpack.ts reads the same count).
constexpr size_t kPerEcho = 8;

// The status names, index = ReplyStatus value, for JS to name the numbers with.
Napi::Array ReplyStatusNames(Napi::Env env);

class ResultWriter {
 public:
  explicit ResultWriter(Napi::Env env);
  std::pair<Napi::Float64Array, Napi::String> Packed(Napi::Env env, const PingResult& result) const;
  // One echo's outcome as it is decided: its numbers first in the same shared array, its texts.
  std::pair<Napi::Float64Array, Napi::String> PackedEcho(Napi::Env env, const EchoOutcome& echo) const;

 private:
  // 64 echoes fit; a longer ping (up to 10,000) gets an array of its own.
  static constexpr size_t kSharedNumbers = 3 + kPerEcho * 64;
  Napi::Reference<Napi::Float64Array> numbers_;
};

}  // namespace nettools::icmp
