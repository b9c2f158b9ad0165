// Query outcomes as JS values: many outcomes flattened into two or three values, which
// src/engines/dns/unpack.ts turns back into objects. JS builds object literals far faster than N-API sets
// properties one by one. First a Float64Array: how many numbers follow, then every number in order,
// copied into its memory at once. Then one string holding every ASCII text, back to back; JS slices them
// out. Texts with other bytes follow in an array, each a string of its own (V8 decodes its UTF-8), and
// only when there are any. Each N-API call costs more than a slice, so a request's texts cost one call,
// not two each; the values go to the callback as its arguments, not in an array (two element writes
// through N-API cost more than the rest of the packing).
// The Float64Array is the writer's own, reused by every call that fits in it (making one per call, with
// its ArrayBuffer, cost more than all the numbers): JS reads it before it calls the engine again.
#pragma once

#include <napi.h>

#include <vector>

#include "dns/dns_engine.h"

namespace nettools::dns {

struct PackedOutcomes {
  std::vector<napi_value> values;  // numbers, ASCII texts[, other texts]
  // For a caller that returns them instead of passing them as arguments (cancel()).
  Napi::Array AsArray(Napi::Env env) const;
};

class OutcomeWriter {
 public:
  explicit OutcomeWriter(Napi::Env env);

  // Per outcome: 0, sends, error, detail | 1, sends, rcode, flag bits, rttMs, tcp, n, n records, c, c links;
  // rcode is the number and tcp 1 or 0 (JS names them);
  // a record is address, ttl (A, AAAA) | priority, exchange, ttl (MX) | k, k parts, ttl (TXT);
  // a link is name, target, ttl. Every text is a number in the numbers stream where it stands: its length
  // in the ASCII string (taken in order), -1 for the next of the other texts, -2 for none (an error's detail).
  PackedOutcomes Packed(Napi::Env env, const std::vector<QueryOutcome>& outcomes) const {
    return Packed(env, outcomes.data(), outcomes.size());
  }
  PackedOutcomes Packed(Napi::Env env, const QueryOutcome* outcomes, size_t count) const;

 private:
  // 32 KiB: a request's eight answers need a few dozen numbers; only a huge TCP answer gets its own.
  static constexpr size_t kSharedNumbers = 4096;
  Napi::Reference<Napi::Float64Array> numbers_;
};

}  // namespace nettools::dns
