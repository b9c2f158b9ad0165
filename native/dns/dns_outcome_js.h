// Query outcomes as JS values: many outcomes flattened into one array, which src/engines/dns/unpack.ts
// turns back into objects. JS builds object literals far faster than N-API sets properties one by one.
// Element 0 is a Float64Array: how many numbers follow, then every number in order, copied into its memory
// at once; the texts follow in order, one N-API call each. The Float64Array is the writer's own, reused by
// every call that fits in it (making one per call, with its ArrayBuffer, cost more than all the numbers):
// JS reads it before it calls the engine again. The one fixed string is created once and reused too.
#pragma once

#include <napi.h>

#include <vector>

#include "dns/dns_engine.h"

namespace nettools::dns {

class OutcomeWriter {
 public:
  explicit OutcomeWriter(Napi::Env env);

  // Per outcome: 0, sends, error, detail | 1, sends, rcode, flag bits, rttMs, tcp, n, n records, c, c links;
  // rcode is the number and tcp 1 or 0 (JS names them: numbers cost nothing, each text an N-API call);
  // a record is address, ttl (A, AAAA) | priority, exchange, ttl (MX) | k, k parts, ttl (TXT);
  // a link is name, target, ttl. Numbers and texts each keep this order in their own stream.
  Napi::Array Packed(Napi::Env env, const std::vector<QueryOutcome>& outcomes) const;

 private:
  enum Key : size_t { kMalformed, kKeyCount };

  Napi::Value key(Key k) const { return keys_.Value().Get(static_cast<uint32_t>(k)); }

  // Held in a JS array: N-API 8 cannot reference a string directly.
  Napi::Reference<Napi::Array> keys_;
  // 32 KiB: a request's eight answers need a few dozen numbers; only a huge TCP answer gets its own.
  static constexpr size_t kSharedNumbers = 4096;
  Napi::Reference<Napi::Float64Array> numbers_;
};

}  // namespace nettools::dns
