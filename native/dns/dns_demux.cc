#include "dns/dns_demux.h"

#include <netinet/in.h>

#include <cstring>

#include "common/reader.h"
#include "dns/dns_query.h"

namespace nettools::dns {

bool SameEndpoint(const sockaddr* from, const sockaddr_storage& server) {
  if (from == nullptr || from->sa_family != server.ss_family) return false;
  if (from->sa_family == AF_INET) {
    const auto* a = reinterpret_cast<const sockaddr_in*>(from);
    const auto* b = reinterpret_cast<const sockaddr_in*>(&server);
    return a->sin_port == b->sin_port && a->sin_addr.s_addr == b->sin_addr.s_addr;
  }
  if (from->sa_family == AF_INET6) {
    const auto* a = reinterpret_cast<const sockaddr_in6*>(from);
    const auto* b = reinterpret_cast<const sockaddr_in6*>(&server);
    return a->sin6_port == b->sin6_port && std::memcmp(&a->sin6_addr, &b->sin6_addr, sizeof(in6_addr)) == 0;
  }
  return false;
}

Verdict Demultiplex(const uint8_t* data, size_t size, const sockaddr* from, const Waiting* waiting, size_t count,
                    size_t* index, Message* m) {
  Reader r(data, size);
  uint16_t txid = 0;
  const Waiting* named = nullptr;
  if (r.u16(&txid)) {
    for (size_t i = 0; i < count; ++i) {
      if (waiting[i].txid == txid) {
        named = &waiting[i];
        *index = i;
        break;
      }
    }
  }
  bool from_server = false;
  if (named != nullptr) {
    from_server = SameEndpoint(from, *named->server);
  } else {
    for (size_t i = 0; i < count && !from_server; ++i) from_server = SameEndpoint(from, *waiting[i].server);
  }
  if (!from_server) return Verdict::kMismatched;
  if (ParseMessage(data, size, m) != Status::kOk) return Verdict::kMalformed;
  // No query: a late answer for one that settled, or an ID nobody here asked with.
  if (named == nullptr || !AnswersQuery(*m, named->txid, *named->qname, named->qtype)) return Verdict::kMismatched;
  return Verdict::kAnswer;
}

}  // namespace nettools::dns
