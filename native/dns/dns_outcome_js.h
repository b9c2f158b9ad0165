// Query outcomes as the JS objects the wrapper expects (src/engines/dns/native.ts NativeOutcome).
// Property names and fixed values are created once per engine and reused: building result objects was
// a tenth of the engine's time when every property name was made and looked up from a C string.
#pragma once

#include <napi.h>

#include <vector>

#include "dns/dns_engine.h"

namespace nettools::dns {

class OutcomeWriter {
 public:
  explicit OutcomeWriter(Napi::Env env);

  Napi::Object Outcome(Napi::Env env, const QueryOutcome& q) const;
  // Many outcomes flattened into one array of primitives, which src/engines/dns/unpack.ts turns back
  // into objects: JS builds object literals far faster than N-API sets properties one by one.
  // Per outcome: 0, error, detail | 1, rcode, flag bits, rttMs, transport, n, n records, c, c links;
  // a record is address, ttl (A, AAAA) | priority, exchange, ttl (MX) | k, k parts, ttl (TXT);
  // a link is name, target, ttl.
  Napi::Array Packed(Napi::Env env, const std::vector<QueryOutcome>& outcomes) const;

 private:
  enum Key : size_t {
    kError, kDetail, kRcode, kFlags, kRttMs, kTransport, kAnswers, kCnames, kAddress, kPriority,
    kExchange, kValue, kParts, kTtl, kName, kTarget, kUdp, kTcp, kMalformed, kNoError, kKeyCount
  };
  static constexpr size_t kFlagCount = 7;

  Napi::Value key(Key k) const { return keys_.Value().Get(static_cast<uint32_t>(k)); }
  Napi::Array Flags(Napi::Env env, uint16_t flags) const;
  Napi::Object Record(Napi::Env env, const dns::Record& r) const;

  // Held in JS arrays: N-API 8 cannot reference a string directly.
  Napi::Reference<Napi::Array> keys_;
  Napi::Reference<Napi::Array> flag_names_;
};

}  // namespace nettools::dns
