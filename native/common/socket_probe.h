// Which ICMP socket kinds the running system lets this process open.
// Pure C++ (no Node headers) so tests and fuzz targets can link it alone.
#pragma once

namespace nettools {

struct SocketSupport {
  // Each field is 0 when the socket opened, else the errno that refused it.
  int dgram_v4;
  int dgram_v6;
  int raw_v4;
  int raw_v6;
};

SocketSupport ProbeIcmpSockets();

}  // namespace nettools
