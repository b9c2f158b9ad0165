#include "common/port_claim.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

namespace nettools {

PortClaim ClaimTcpPort(const char* host, uint16_t port) {
  PortClaim out;
  sockaddr_storage sa{};
  socklen_t sa_len = 0;
  auto* v4 = reinterpret_cast<sockaddr_in*>(&sa);
  auto* v6 = reinterpret_cast<sockaddr_in6*>(&sa);
  if (inet_pton(AF_INET, host, &v4->sin_addr) == 1) {
    v4->sin_family = AF_INET;
    v4->sin_port = htons(port);
    sa_len = sizeof(*v4);
  } else if (inet_pton(AF_INET6, host, &v6->sin6_addr) == 1) {
    v6->sin6_family = AF_INET6;
    v6->sin6_port = htons(port);
    sa_len = sizeof(*v6);
  } else {
    out.error = EINVAL;
    return out;
  }
  const int fd = socket(sa.ss_family, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (fd < 0) {
    out.error = errno;
    return out;
  }
  const int one = 1;
  setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
  if (bind(fd, reinterpret_cast<const sockaddr*>(&sa), sa_len) != 0) {
    out.error = errno;
  } else {
    sockaddr_storage bound{};
    socklen_t bound_len = sizeof(bound);
    if (getsockname(fd, reinterpret_cast<sockaddr*>(&bound), &bound_len) != 0) {
      out.error = errno;
    } else {
      out.port = ntohs(bound.ss_family == AF_INET ? reinterpret_cast<sockaddr_in*>(&bound)->sin_port
                                                  : reinterpret_cast<sockaddr_in6*>(&bound)->sin6_port);
    }
  }
  close(fd);
  return out;
}

}  // namespace nettools
