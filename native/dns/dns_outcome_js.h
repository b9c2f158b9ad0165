// Query outcomes as JS values: many outcomes flattened into one array, which src/engines/dns/unpack.ts
// turns back into objects. JS builds object literals far faster than N-API sets properties one by one.
// Element 0 is a Float64Array of every number in order, copied into its memory at once; the texts
// follow in order, one N-API call each. The one fixed string is created once per engine and reused.
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
};

}  // namespace nettools::dns
