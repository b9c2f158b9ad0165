#include "icmp/icmp_socket.h"

#include <linux/errqueue.h>
#include <linux/icmp.h>
#include <netinet/icmp6.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

namespace nettools::icmp {

namespace {

// Loopback bursts of a few thousand replies overflow the default buffer (3 of 2,000 arrived).
constexpr int kRcvBuf = 8 * 1024 * 1024;

void SetInt(int fd, int level, int name, int value) {
  // Each option is an improvement, not a requirement: a kernel without it still pings.
  (void)setsockopt(fd, level, name, &value, sizeof(value));
}

void Configure(int fd, Family family, SocketKind kind) {
  if (setsockopt(fd, SOL_SOCKET, SO_RCVBUFFORCE, &kRcvBuf, sizeof(kRcvBuf)) != 0) {
    SetInt(fd, SOL_SOCKET, SO_RCVBUF, kRcvBuf);
  }
  SetInt(fd, SOL_SOCKET, SO_TIMESTAMPNS, 1);
  SetInt(fd, SOL_SOCKET, SO_RXQ_OVFL, 1);
  if (family == Family::kV4) {
    SetInt(fd, IPPROTO_IP, IP_RECVTTL, 1);
  } else {
    SetInt(fd, IPPROTO_IPV6, IPV6_RECVHOPLIMIT, 1);
  }
  if (kind == SocketKind::kDgram) {
    // Datagram sockets learn of ICMP errors only through the error queue; SO_SELECT_ERR_QUEUE turns a
    // queued error into a priority event, so uv_poll is not stopped by POLLERR.
    if (family == Family::kV4) {
      SetInt(fd, IPPROTO_IP, IP_RECVERR, 1);
    } else {
      SetInt(fd, IPPROTO_IPV6, IPV6_RECVERR, 1);
    }
    SetInt(fd, SOL_SOCKET, SO_SELECT_ERR_QUEUE, 1);
    return;
  }
  // Raw sockets see every ICMP packet on the host: wake only for replies and errors.
  if (family == Family::kV4) {
    icmp_filter filt{};
    filt.data = ~((1u << ICMP_ECHOREPLY) | (1u << ICMP_DEST_UNREACH) | (1u << ICMP_TIME_EXCEEDED) |
                  (1u << ICMP_PARAMETERPROB));
    (void)setsockopt(fd, SOL_RAW, ICMP_FILTER, &filt, sizeof(filt));
  } else {
    icmp6_filter filt;
    ICMP6_FILTER_SETBLOCKALL(&filt);
    ICMP6_FILTER_SETPASS(ICMP6_ECHO_REPLY, &filt);
    ICMP6_FILTER_SETPASS(ICMP6_DST_UNREACH, &filt);
    ICMP6_FILTER_SETPASS(ICMP6_PACKET_TOO_BIG, &filt);
    ICMP6_FILTER_SETPASS(ICMP6_TIME_EXCEEDED, &filt);
    ICMP6_FILTER_SETPASS(ICMP6_PARAM_PROB, &filt);
    (void)setsockopt(fd, IPPROTO_ICMPV6, ICMP6_FILTER, &filt, sizeof(filt));
  }
}

// Binding to port 0 makes the kernel pick the identifier now, so we can read it back before sending.
bool BindAndReadId(int fd, Family family, uint16_t* id) {
  sockaddr_storage ss{};
  socklen_t len;
  if (family == Family::kV4) {
    auto* sin = reinterpret_cast<sockaddr_in*>(&ss);
    sin->sin_family = AF_INET;
    len = sizeof(sockaddr_in);
  } else {
    auto* sin6 = reinterpret_cast<sockaddr_in6*>(&ss);
    sin6->sin6_family = AF_INET6;
    len = sizeof(sockaddr_in6);
  }
  if (bind(fd, reinterpret_cast<sockaddr*>(&ss), len) != 0) return false;
  len = sizeof(ss);
  if (getsockname(fd, reinterpret_cast<sockaddr*>(&ss), &len) != 0) return false;
  *id = family == Family::kV4 ? ntohs(reinterpret_cast<sockaddr_in*>(&ss)->sin_port)
                              : ntohs(reinterpret_cast<sockaddr_in6*>(&ss)->sin6_port);
  return true;
}

int TryOpen(Family family, SocketKind kind, OpenedSocket* out) {
  const int domain = family == Family::kV4 ? AF_INET : AF_INET6;
  const int base = kind == SocketKind::kDgram ? static_cast<int>(SOCK_DGRAM) : static_cast<int>(SOCK_RAW);
  const int type = base | SOCK_NONBLOCK | SOCK_CLOEXEC;
  const int proto = family == Family::kV4 ? static_cast<int>(IPPROTO_ICMP) : static_cast<int>(IPPROTO_ICMPV6);
  const int fd = socket(domain, type, proto);
  if (fd < 0) return errno;
  if (kind == SocketKind::kDgram && !BindAndReadId(fd, family, &out->id)) {
    const int err = errno;
    close(fd);
    return err;
  }
  Configure(fd, family, kind);
  out->fd = fd;
  out->kind = kind;
  return 0;
}

bool FallsBackToRaw(int err) { return err == EACCES || err == EPROTONOSUPPORT || err == EAFNOSUPPORT; }

void ReadControl(msghdr& msg, Family family, Received* out);

}  // namespace

OpenedSocket OpenIcmpSocket(Family family, KindPreference pref, uint16_t raw_id) {
  OpenedSocket s;
  if (pref != KindPreference::kRaw) {
    s.error = TryOpen(family, SocketKind::kDgram, &s);
    if (s.error == 0 || pref == KindPreference::kDgram || !FallsBackToRaw(s.error)) return s;
  }
  s.error = TryOpen(family, SocketKind::kRaw, &s);
  if (s.error == 0) s.id = raw_id;
  return s;
}

int SendEcho(int fd, Family family, const sockaddr* dst, const uint8_t* pkt, size_t len, int ttl) {
  iovec iov{const_cast<uint8_t*>(pkt), len};
  msghdr msg{};
  msg.msg_name = const_cast<sockaddr*>(dst);
  msg.msg_namelen = family == Family::kV4 ? sizeof(sockaddr_in) : sizeof(sockaddr_in6);
  msg.msg_iov = &iov;
  msg.msg_iovlen = 1;
  alignas(cmsghdr) char control[CMSG_SPACE(sizeof(int))];
  if (ttl >= 0) {
    std::memset(control, 0, sizeof(control));
    msg.msg_control = control;
    msg.msg_controllen = sizeof(control);
    cmsghdr* c = CMSG_FIRSTHDR(&msg);
    c->cmsg_level = family == Family::kV4 ? static_cast<int>(IPPROTO_IP) : static_cast<int>(IPPROTO_IPV6);
    c->cmsg_type = family == Family::kV4 ? static_cast<int>(IP_TTL) : static_cast<int>(IPV6_HOPLIMIT);
    c->cmsg_len = CMSG_LEN(sizeof(int));
    std::memcpy(CMSG_DATA(c), &ttl, sizeof(int));
  }
  // An ICMP error for another ping on this shared socket leaves a pending socket error (sk_err) that
  // the kernel hands to the next datagram send instead of sending, clearing it as it does (raw sends
  // never report it). So a failed send is tried again: a stale error is gone by then, a real failure
  // repeats. Reading SO_ERROR before every send did the same at the price of a syscall per echo.
  int err = 0;
  for (int attempt = 0; attempt < 3; ++attempt) {
    if (sendmsg(fd, &msg, 0) >= 0) return 0;
    err = errno;
  }
  return err;
}

int ReceiveOne(int fd, Family family, bool errqueue, uint8_t* buf, size_t cap, Received* out) {
  *out = Received{};
  iovec iov{buf, cap};
  msghdr msg{};
  msg.msg_name = &out->from;
  msg.msg_namelen = sizeof(out->from);
  msg.msg_iov = &iov;
  msg.msg_iovlen = 1;
  alignas(cmsghdr) char control[512];
  msg.msg_control = control;
  msg.msg_controllen = sizeof(control);
  ssize_t n;
  do {
    n = recvmsg(fd, &msg, errqueue ? MSG_ERRQUEUE : 0);
  } while (n < 0 && errno == EINTR);
  if (n < 0) return errno;
  out->len = static_cast<size_t>(n);
  ReadControl(msg, family, out);
  return 0;
}

int ReceiveMany(int fd, Family family, ReceiveBatch* batch, unsigned* count) {
  *count = 0;
  mmsghdr* msgs = batch->msgs;
  // Only what the kernel wrote back is reset here, and only the entries it filled after the call: setting
  // up all kBatch entries (a Received is some 300 bytes) before each call cost more than the rest of a
  // reply's handling.
  if (!batch->ready) {
    for (unsigned i = 0; i < ReceiveBatch::kBatch; ++i) {
      batch->iov[i] = iovec{batch->bufs[i], ReceiveBatch::kBufSize};
      msghdr& msg = msgs[i].msg_hdr;
      msg.msg_name = &batch->got[i].from;
      msg.msg_iov = &batch->iov[i];
      msg.msg_iovlen = 1;
      msg.msg_control = batch->control[i];
    }
    batch->ready = true;
  }
  for (unsigned i = 0; i < ReceiveBatch::kBatch; ++i) {
    msghdr& msg = msgs[i].msg_hdr;
    msg.msg_namelen = sizeof(sockaddr_storage);
    msg.msg_controllen = ReceiveBatch::kControlSize;
    msg.msg_flags = 0;
    msgs[i].msg_len = 0;
  }
  int n;
  do {
    n = recvmmsg(fd, msgs, ReceiveBatch::kBatch, 0, nullptr);
  } while (n < 0 && errno == EINTR);
  if (n < 0) return errno;
  if (n == 0) return EAGAIN;
  for (unsigned i = 0; i < static_cast<unsigned>(n); ++i) {
    Received& out = batch->got[i];
    // The sender as the kernel wrote it (its first msg_namelen bytes), the rest zero as in a fresh one.
    Received fresh{};
    const socklen_t from_len = msgs[i].msg_hdr.msg_namelen;
    std::memcpy(&fresh.from, &out.from, from_len < sizeof(fresh.from) ? from_len : sizeof(fresh.from));
    out = fresh;
    // msg_len is what the kernel copied: never more than the buffer (a longer datagram is cut, MSG_TRUNC).
    out.len = msgs[i].msg_len < ReceiveBatch::kBufSize ? msgs[i].msg_len : ReceiveBatch::kBufSize;
    ReadControl(msgs[i].msg_hdr, family, &out);
  }
  *count = static_cast<unsigned>(n);
  return 0;
}

namespace {

// What the kernel said of one datagram in its control messages: receive stamp, drops, TTL / hop limit,
// and for the error queue the ICMP error and its offender.
void ReadControl(msghdr& msg, Family family, Received* out) {
  const int ip_level = family == Family::kV4 ? static_cast<int>(IPPROTO_IP) : static_cast<int>(IPPROTO_IPV6);
  for (cmsghdr* c = CMSG_FIRSTHDR(&msg); c != nullptr; c = CMSG_NXTHDR(&msg, c)) {
    if (c->cmsg_level == SOL_SOCKET && c->cmsg_type == SCM_TIMESTAMPNS && c->cmsg_len >= CMSG_LEN(sizeof(timespec))) {
      std::memcpy(&out->stamp, CMSG_DATA(c), sizeof(timespec));
      out->has_stamp = true;
    } else if (c->cmsg_level == SOL_SOCKET && c->cmsg_type == SO_RXQ_OVFL &&
               c->cmsg_len >= CMSG_LEN(sizeof(uint32_t))) {
      std::memcpy(&out->drops, CMSG_DATA(c), sizeof(uint32_t));
      out->has_drops = true;
    } else if (c->cmsg_level == ip_level &&
               ((family == Family::kV4 && c->cmsg_type == IP_TTL) ||
                (family == Family::kV6 && c->cmsg_type == IPV6_HOPLIMIT)) &&
               c->cmsg_len >= CMSG_LEN(sizeof(int))) {
      std::memcpy(&out->ttl, CMSG_DATA(c), sizeof(int));
    } else if (c->cmsg_level == ip_level &&
               ((family == Family::kV4 && c->cmsg_type == IP_RECVERR) ||
                (family == Family::kV6 && c->cmsg_type == IPV6_RECVERR)) &&
               c->cmsg_len >= CMSG_LEN(sizeof(sock_extended_err))) {
      sock_extended_err ee;
      std::memcpy(&ee, CMSG_DATA(c), sizeof(ee));
      if (ee.ee_origin != SO_EE_ORIGIN_ICMP && ee.ee_origin != SO_EE_ORIGIN_ICMP6) continue;
      out->is_icmp_error = true;
      out->err_type = ee.ee_type;
      out->err_code = ee.ee_code;
      // The offender's address follows the extended error inside the same control message.
      const size_t addr_len = family == Family::kV4 ? sizeof(sockaddr_in) : sizeof(sockaddr_in6);
      if (c->cmsg_len >= CMSG_LEN(sizeof(ee) + addr_len)) {
        std::memcpy(&out->offender, CMSG_DATA(c) + sizeof(ee), addr_len);
        out->has_offender = out->offender.ss_family != AF_UNSPEC;
      }
    }
  }
}

}  // namespace

}  // namespace nettools::icmp
