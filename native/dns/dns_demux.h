// Which query a datagram on a shared UDP socket answers, if any: pure code (no libuv, no N-API), so
// libFuzzer can drive it with hostile datagrams and sources (native/fuzz/dns_demux_fuzz.cc).
#pragma once

#include <sys/socket.h>

#include <cstddef>
#include <cstdint>

#include "dns/dns_message.h"
#include "dns/dns_name.h"

namespace nettools::dns {

// A query waiting on the socket; the pointers stay valid while it waits.
struct Waiting {
  uint16_t txid = 0;
  const sockaddr_storage* server = nullptr;
  const Name* qname = nullptr;
  uint16_t qtype = 0;
};

enum class Verdict { kAnswer, kMismatched, kMalformed };

// Checks in the order one socket per query had them: source, shape, then ID and question. The ID only
// picks whose checks apply; the source must be that query's resolver. A datagram whose ID names no
// waiting query is mismatched if it comes from one of their resolvers and parses, malformed if it does
// not parse, and mismatched (unparsed) from anywhere else. On kAnswer, `*index` is the answered
// entry and `*m` the parsed response.
Verdict Demultiplex(const uint8_t* data, size_t size, const sockaddr* from, const Waiting* waiting, size_t count,
                    size_t* index, Message* m);

// Only the resolver's exact address and port may answer: off-path spoofers can send from anywhere.
bool SameEndpoint(const sockaddr* from, const sockaddr_storage& server);

}  // namespace nettools::dns
