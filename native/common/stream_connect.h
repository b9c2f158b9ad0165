// What both connection engines (tcp, http) do around a non-blocking connect(): the socket address of an
// address value, and whether the handshake has already ended.
#pragma once

#include <sys/socket.h>

#include <cstdint>

#include "common/ip_bytes.h"

namespace nettools {

// The sockaddr for `address`:`port` (4 bytes: IPv4, 16: IPv6); its length.
socklen_t SockaddrOf(const IpBytes& address, uint16_t port, sockaddr_storage* out);

// Whether the handshake has already ended, asked without waiting: its SO_ERROR (0: connected), or -1 while
// it goes on. On loopback and over a veth into a local namespace the SYN-ACK is processed inside connect()
// itself; waiting for the loop's writable event would add the loop's own delay (the JavaScript that runs
// before it polls, a busy machine's scheduling) to a time a blocking connect() does not see.
int SettledConnectError(int fd);

}  // namespace nettools
