#include "dns/dns_resend_timer.h"

#include <algorithm>
#include <cmath>

namespace nettools::dns {

uint64_t ResendTimer::AfterMs(const Estimate& e, uint64_t budget_ms) {
  const double after = e.srtt_ms + 4 * e.rttvar_ms;
  const double ceiling = static_cast<double>(budget_ms);
  return static_cast<uint64_t>(std::ceil(std::clamp(after, static_cast<double>(kFloorMs), ceiling)));
}

uint64_t ResendTimer::ResendAfterMs(uint64_t server, uint64_t budget_ms) const {
  auto it = table_.find(server);
  if (it == table_.end()) return budget_ms / 2;
  return AfterMs(it->second, budget_ms);
}

void ResendTimer::Observe(uint64_t server, double rtt_ms) {
  if (!(rtt_ms >= 0) || std::isinf(rtt_ms)) return;
  if (table_.size() >= kMaxResolvers && table_.find(server) == table_.end()) table_.clear();
  auto [it, fresh] = table_.try_emplace(server);
  Estimate& e = it->second;
  if (fresh) {
    e.srtt_ms = rtt_ms;
    e.rttvar_ms = rtt_ms / 2;
    return;
  }
  e.rttvar_ms = 0.75 * e.rttvar_ms + 0.25 * std::fabs(e.srtt_ms - rtt_ms);
  e.srtt_ms = 0.875 * e.srtt_ms + 0.125 * rtt_ms;
}

void ResendTimer::Missed(uint64_t server, uint64_t now_ms) {
  auto it = table_.find(server);
  if (it == table_.end()) return;
  Estimate& e = it->second;
  if (now_ms < e.backoff_until_ms) return;
  // Doubling the variation term doubles the wait beyond the mean, as TCP backs its RTO off; capped so
  // one long outage does not leave a recovered resolver waited on for ever.
  e.rttvar_ms = std::min(2 * e.rttvar_ms + 1, 60000.0);
  e.backoff_until_ms = now_ms + AfterMs(e, 60000);
}

}  // namespace nettools::dns
