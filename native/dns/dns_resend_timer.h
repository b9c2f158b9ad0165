// When to resend an unanswered UDP query: after the resolver's own smoothed round-trip time and four
// times its variation (RFC 6298, as TCP and Unbound keep them), never sooner than a floor nor later
// than the query's budget. A resolver never measured gets half the budget, the old fixed rule.
#pragma once

#include <cstddef>
#include <cstdint>
#include <unordered_map>

namespace nettools::dns {

// Resolvers are named by ServerKey (dns_resolver_window.h), worked out once per query.

class ResendTimer {
 public:
  // Loopback resolvers answer in microseconds: a resend sooner than this only doubles the load on one
  // that is merely busy for a moment.
  static constexpr uint64_t kFloorMs = 50;
  // Resolvers are few; a table that somehow grows past this starts over.
  static constexpr size_t kMaxResolvers = 1024;

  // Milliseconds after the first send to resend; `budget_ms` or more means no resend.
  uint64_t ResendAfterMs(uint64_t server, uint64_t budget_ms) const;
  // An answer to a query sent once (Karn: a resent query's answer cannot say which send it answers).
  void Observe(uint64_t server, double rtt_ms);
  // No answer by the resend time: the resolver is slower than we thought, so wait longer next time.
  // Once per resend interval: queries lost together in one burst are one sign, not one each, as TCP
  // backs its RTO off once per timeout rather than once per segment in flight.
  void Missed(uint64_t server, uint64_t now_ms);

 private:
  struct Estimate {
    double srtt_ms = 0;
    double rttvar_ms = 0;
    uint64_t backoff_until_ms = 0;  // no further backoff before this
  };
  static uint64_t AfterMs(const Estimate& e, uint64_t budget_ms);
  std::unordered_map<uint64_t, Estimate> table_;
};

}  // namespace nettools::dns
