// Opening, configuring, sending on and receiving from one ICMP socket (POSIX only, no event loop).
#pragma once

#include <netinet/in.h>
#include <sys/socket.h>

#include <cstddef>
#include <cstdint>
#include <ctime>

#include "icmp/icmp_codec.h"

namespace nettools::icmp {

enum class KindPreference { kAuto, kDgram, kRaw };

struct OpenedSocket {
  int fd = -1;
  SocketKind kind = SocketKind::kDgram;
  int error = 0;  // errno of the last refused attempt when fd < 0
  uint16_t id = 0;  // identifier: kernel-chosen (datagram) or ours (raw)
};

// Datagram first, raw when the datagram kind is refused (or as forced). Non-blocking, close-on-exec,
// large receive buffer, receive timestamps and TTL/hop limit, error queue (datagram) or type filter (raw).
OpenedSocket OpenIcmpSocket(Family family, KindPreference pref, uint16_t raw_id);

// Sends one echo; ttl < 0 keeps the default. The TTL goes in a control message so that other pings
// sharing the socket are unaffected. Returns 0 or errno.
int SendEcho(int fd, Family family, const sockaddr* dst, const uint8_t* pkt, size_t len, int ttl);

struct Received {
  size_t len = 0;
  sockaddr_storage from{};  // sender (or, from the error queue, the original destination)
  bool has_stamp = false;
  timespec stamp{};  // kernel receive time, CLOCK_REALTIME
  int ttl = -1;
  bool has_drops = false;
  uint32_t drops = 0;  // kernel's running count of packets dropped on this socket
  // Error queue only.
  bool is_icmp_error = false;
  uint8_t err_type = 0;
  uint8_t err_code = 0;
  bool has_offender = false;
  sockaddr_storage offender{};
};

// One recvmsg (from the error queue when errqueue). Returns 0, or errno (EAGAIN when drained).
int ReceiveOne(int fd, Family family, bool errqueue, uint8_t* buf, size_t cap, Received* out);

// Room for the datagrams of one recvmmsg from the normal queue: kBatch buffers of kBufSize bytes, each
// with its control space, and what was received in each.
struct ReceiveBatch {
  static constexpr unsigned kBatch = 32;
  static constexpr size_t kBufSize = 4096;
  static constexpr size_t kControlSize = 512;
  uint8_t bufs[kBatch][kBufSize];
  alignas(cmsghdr) char control[kBatch][kControlSize];
  Received got[kBatch];
  // recvmmsg's headers, pointing into the arrays above: set up on first use, and then only the fields
  // the kernel writes back are reset before each call. The batch must not move once used.
  iovec iov[kBatch]{};
  mmsghdr msgs[kBatch]{};
  bool ready = false;
};

// One recvmmsg from the normal queue into `batch`: up to kBatch datagrams, each len at most kBufSize.
// Returns 0 with *count > 0, or errno (EAGAIN when the queue is empty). Fewer than kBatch means the queue
// was empty when the call returned.
int ReceiveMany(int fd, Family family, ReceiveBatch* batch, unsigned* count);

}  // namespace nettools::icmp
