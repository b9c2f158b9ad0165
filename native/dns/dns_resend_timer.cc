#include "dns/dns_resend_timer.h"

#include <netinet/in.h>

#include <algorithm>
#include <cmath>
#include <cstring>

namespace nettools::dns {

// FNV-1a over the address bytes and port: resolvers are configured by the operator, so collisions
// between them are as unlikely as they are harmless (two resolvers would share one estimate).
uint64_t ResendTimer::KeyOf(const sockaddr_storage& server) {
  const uint8_t* bytes = nullptr;
  size_t len = 0;
  uint16_t port = 0;
  if (server.ss_family == AF_INET) {
    const auto* v4 = reinterpret_cast<const sockaddr_in*>(&server);
    bytes = reinterpret_cast<const uint8_t*>(&v4->sin_addr);
    len = sizeof(v4->sin_addr);
    port = v4->sin_port;
  } else {
    const auto* v6 = reinterpret_cast<const sockaddr_in6*>(&server);
    bytes = reinterpret_cast<const uint8_t*>(&v6->sin6_addr);
    len = sizeof(v6->sin6_addr);
    port = v6->sin6_port;
  }
  uint64_t h = 1469598103934665603ULL;
  for (size_t i = 0; i < len; ++i) h = (h ^ bytes[i]) * 1099511628211ULL;
  h = (h ^ (port & 0xFF)) * 1099511628211ULL;
  h = (h ^ (port >> 8)) * 1099511628211ULL;
  return h;
}

uint64_t ResendTimer::ResendAfterMs(const sockaddr_storage& server, uint64_t budget_ms) const {
  auto it = table_.find(KeyOf(server));
  if (it == table_.end()) return budget_ms / 2;
  const double after = it->second.srtt_ms + 4 * it->second.rttvar_ms;
  const double ceiling = static_cast<double>(budget_ms);
  return static_cast<uint64_t>(std::ceil(std::clamp(after, static_cast<double>(kFloorMs), ceiling)));
}

void ResendTimer::Observe(const sockaddr_storage& server, double rtt_ms) {
  if (!(rtt_ms >= 0) || std::isinf(rtt_ms)) return;
  if (table_.size() >= kMaxResolvers && table_.find(KeyOf(server)) == table_.end()) table_.clear();
  auto [it, fresh] = table_.try_emplace(KeyOf(server));
  Estimate& e = it->second;
  if (fresh) {
    e.srtt_ms = rtt_ms;
    e.rttvar_ms = rtt_ms / 2;
    return;
  }
  e.rttvar_ms = 0.75 * e.rttvar_ms + 0.25 * std::fabs(e.srtt_ms - rtt_ms);
  e.srtt_ms = 0.875 * e.srtt_ms + 0.125 * rtt_ms;
}

void ResendTimer::Missed(const sockaddr_storage& server) {
  auto it = table_.find(KeyOf(server));
  if (it == table_.end()) return;
  // Doubling the variation term doubles the wait beyond the mean, as TCP backs its RTO off; capped so
  // one long outage does not leave a recovered resolver waited on for ever.
  it->second.rttvar_ms = std::min(2 * it->second.rttvar_ms + 1, 60000.0);
}

}  // namespace nettools::dns
