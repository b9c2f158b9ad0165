// Whether this process could listen on a TCP address and port now, found by binding a socket there and
// closing it, never listening: a client that connects meanwhile is refused, not accepted and reset, so a
// health check cannot take the check for the server (src/http/port-owner.ts).
#pragma once

#include <cstdint>

namespace nettools {

struct PortClaim {
  int error = 0;      // the errno of socket() or bind(), or EINVAL for a host that is no IP literal
  uint16_t port = 0;  // the port bound (the kernel's pick for 0) when error is 0
};

// SO_REUSEADDR, as every listener here sets it: connections of an earlier server waiting out TIME_WAIT do
// not stop the bind, and a socket listening on the port (SO_REUSEPORT or not) does.
PortClaim ClaimTcpPort(const char* host, uint16_t port);

}  // namespace nettools
