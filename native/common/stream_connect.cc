#include "common/stream_connect.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>

#include <cerrno>
#include <cstring>

namespace nettools {

socklen_t SockaddrOf(const IpBytes& address, uint16_t port, sockaddr_storage* out) {
  std::memset(out, 0, sizeof(*out));
  if (address.size == 4) {
    auto* sin = reinterpret_cast<sockaddr_in*>(out);
    sin->sin_family = AF_INET;
    sin->sin_port = htons(port);
    std::memcpy(&sin->sin_addr, address.bytes, 4);
    return sizeof(sockaddr_in);
  }
  auto* sin6 = reinterpret_cast<sockaddr_in6*>(out);
  sin6->sin6_family = AF_INET6;
  sin6->sin6_port = htons(port);
  std::memcpy(&sin6->sin6_addr, address.bytes, 16);
  return sizeof(sockaddr_in6);
}

int SettledConnectError(int fd) {
  pollfd p{};
  p.fd = fd;
  p.events = POLLOUT;
  if (poll(&p, 1, 0) != 1 || p.revents == 0) return -1;
  int error = 0;
  socklen_t len = sizeof(error);
  if (getsockopt(fd, SOL_SOCKET, SO_ERROR, &error, &len) != 0) error = errno;
  return error;
}

}  // namespace nettools
