#include "dns/dns_resolver_window.h"

#include <netinet/in.h>

namespace nettools::dns {

uint64_t ServerKey(const sockaddr_storage& server) {
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

bool ResolverWindow::Enter(uint64_t server, uint32_t query) {
  Lane& lane = lanes_[server];
  if (lane.in_flight < limit_ && lane.waiting.empty()) {
    lane.in_flight++;
    return true;
  }
  lane.waiting.push_back(query);
  return false;
}

void ResolverWindow::Leave(uint64_t server) {
  auto it = lanes_.find(server);
  if (it == lanes_.end() || it->second.in_flight == 0) return;
  Lane& lane = it->second;
  lane.in_flight--;
  if (lane.in_flight == 0 && lane.waiting.empty()) lanes_.erase(it);
  else if (lane.in_flight == limit_ - 1 && !lane.waiting.empty()) admissible_ = true;
}

std::vector<std::pair<uint64_t, uint32_t>> ResolverWindow::Admit() {
  std::vector<std::pair<uint64_t, uint32_t>> out;
  if (!admissible_) return out;
  for (auto& [server, lane] : lanes_) {
    while (lane.in_flight < limit_ && !lane.waiting.empty()) {
      out.emplace_back(server, lane.waiting.front());
      lane.waiting.pop_front();
      lane.in_flight++;
    }
  }
  admissible_ = false;
  return out;
}

void ResolverWindow::Clear() {
  lanes_.clear();
  admissible_ = false;
}

}  // namespace nettools::dns
