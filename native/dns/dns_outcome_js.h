// Query outcomes as JS values, in the addon's one packed form (common/packed_js.h), which
// src/engines/dns/unpack.ts turns back into objects.
#pragma once

#include <napi.h>

#include <vector>

#include "common/packed_js.h"
#include "dns/dns_engine.h"

namespace nettools::dns {

class OutcomeWriter {
 public:
  explicit OutcomeWriter(Napi::Env env) : packed_(env, kSharedNumbers) {}

  // Per outcome: 0, sends, error, detail | 1, sends, rcode, flag bits, rttMs, transport, n, n records, c, c links;
  // rcode is the number and transport 0 udp, 1 tcp, 2 tls (JS names them);
  // a record is address, ttl (A, AAAA) | priority, exchange, ttl (MX) | k, k parts, ttl (TXT) | name, ttl (PTR, NS)
  // | owner, target, ttl (CNAME) | the fields of any other type (WriteFields), ttl;
  // a link is name, target, ttl; then the OPT record (WriteEdns), then r, r RRSIGs (as WriteFields, ttl).
  // An error's detail may be no text.
  PackedValues Packed(const std::vector<QueryOutcome>& outcomes) { return Packed(outcomes.data(), outcomes.size()); }
  PackedValues Packed(const QueryOutcome* outcomes, size_t count);

 private:
  // 32 KiB: a request's eight answers need a few dozen numbers; only a huge TCP answer gets its own.
  static constexpr size_t kSharedNumbers = 4096;
  void Write(const QueryOutcome& q);
  void WriteRecord(const Record& r);
  // i, i numbers | j, j names | k, k texts | data (text, or no text) | m, m SvcParams (key, value by key):
  // in RDATA order, read per type by src/engines/dns/rdata.ts.
  void WriteFields(const Record& r);
  void WriteSvcParam(const SvcParam& param);
  void WriteEdns(const Edns& e);
  PackedWriter packed_;
};

}  // namespace nettools::dns
