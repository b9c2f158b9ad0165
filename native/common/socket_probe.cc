#include "common/socket_probe.h"

#include <cerrno>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

namespace nettools {
namespace {

int TryOpen(int family, int type, int protocol) {
  int fd = socket(family, type | SOCK_CLOEXEC, protocol);
  if (fd < 0) return errno;
  close(fd);
  return 0;
}

}  // namespace

SocketSupport ProbeIcmpSockets() {
  SocketSupport s;
  s.dgram_v4 = TryOpen(AF_INET, SOCK_DGRAM, IPPROTO_ICMP);
  s.dgram_v6 = TryOpen(AF_INET6, SOCK_DGRAM, IPPROTO_ICMPV6);
  s.raw_v4 = TryOpen(AF_INET, SOCK_RAW, IPPROTO_ICMP);
  s.raw_v6 = TryOpen(AF_INET6, SOCK_RAW, IPPROTO_ICMPV6);
  return s;
}

}  // namespace nettools
