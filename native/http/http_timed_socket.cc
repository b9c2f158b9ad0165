#include "http/http_timed_socket.h"

#include <sys/socket.h>

#include <cerrno>
#include <cstring>
#include <ctime>

namespace nettools::http {

namespace {

uint64_t Ns(const timespec& ts) { return static_cast<uint64_t>(ts.tv_sec) * 1000000000u + static_cast<uint64_t>(ts.tv_nsec); }

uint64_t ClockNs(clockid_t id) {
  timespec ts{};
  clock_gettime(id, &ts);
  return Ns(ts);
}

// The kernel stamps in CLOCK_REALTIME, as the callback's beginning is noted; only the difference of the
// two is used with CLOCK_MONOTONIC, so no offset between the clocks enters.
void Learn(const msghdr& msg, RxClock* clock) {
  for (cmsghdr* c = CMSG_FIRSTHDR(&msg); c != nullptr; c = CMSG_NXTHDR(const_cast<msghdr*>(&msg), c)) {
    if (c->cmsg_level != SOL_SOCKET || c->cmsg_type != SCM_TIMESTAMPNS || c->cmsg_len < CMSG_LEN(sizeof(timespec))) continue;
    timespec arrived{};
    std::memcpy(&arrived, CMSG_DATA(c), sizeof(arrived));
    const uint64_t at = Ns(arrived);
    // Bytes that came while the callback ran did not wait for it; a clock step makes no correction.
    clock->lag_ns = at != 0 && clock->began_real_ns > at ? clock->began_real_ns - at : 0;
    return;
  }
}

// What a timed BIO reads and writes through; owned by the BIO.
struct TimedSocket {
  int fd;
  RxClock* clock;
};

TimedSocket* SocketOf(BIO* bio) { return static_cast<TimedSocket*>(BIO_get_data(bio)); }

int BioWrite(BIO* bio, const char* data, int size) {
  BIO_clear_retry_flags(bio);
  TimedSocket* socket = SocketOf(bio);
  const ssize_t n = send(socket->fd, data, static_cast<size_t>(size), MSG_NOSIGNAL);
  if (n > 0) socket->clock->Sent();
  if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR)) BIO_set_retry_write(bio);
  return static_cast<int>(n);
}

int BioRead(BIO* bio, char* data, int size) {
  BIO_clear_retry_flags(bio);
  TimedSocket* socket = SocketOf(bio);
  const ssize_t n = TimedRecv(socket->fd, data, static_cast<size_t>(size), socket->clock);
  if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR)) BIO_set_retry_read(bio);
  return static_cast<int>(n);
}

long BioCtrl(BIO* /*bio*/, int cmd, long /*num*/, void* /*ptr*/) { return cmd == BIO_CTRL_FLUSH ? 1 : 0; }

int BioDestroy(BIO* bio) {
  delete SocketOf(bio);
  BIO_set_data(bio, nullptr);
  return 1;
}

BIO_METHOD* Method() {
  // Made once per process and never freed: every timed BIO shares it.
  static BIO_METHOD* method = [] {
    BIO_METHOD* m = BIO_meth_new(BIO_get_new_index() | BIO_TYPE_SOURCE_SINK, "nettools timed socket");
    if (m == nullptr) return m;
    BIO_meth_set_write(m, BioWrite);
    BIO_meth_set_read(m, BioRead);
    BIO_meth_set_ctrl(m, BioCtrl);
    BIO_meth_set_destroy(m, BioDestroy);
    return m;
  }();
  return method;
}

}  // namespace

uint64_t MonotonicNs() { return ClockNs(CLOCK_MONOTONIC); }

void RxClock::Begin() {
  lag_ns = 0;
  began_real_ns = ClockNs(CLOCK_REALTIME);
}

void EnableRxTimestamps(int fd) {
  const int one = 1;
  setsockopt(fd, SOL_SOCKET, SO_TIMESTAMPNS, &one, sizeof(one));
}

ssize_t TimedRecv(int fd, void* buf, size_t len, RxClock* clock) {
  iovec iov{buf, len};
  alignas(cmsghdr) char control[CMSG_SPACE(sizeof(timespec)) * 2];
  msghdr msg{};
  msg.msg_iov = &iov;
  msg.msg_iovlen = 1;
  msg.msg_control = control;
  msg.msg_controllen = sizeof(control);
  const ssize_t n = recvmsg(fd, &msg, 0);
  if (n > 0) Learn(msg, clock);
  return n;
}

BIO* NewTimedSocketBio(int fd, RxClock* clock) {
  BIO_METHOD* method = Method();
  if (method == nullptr) return nullptr;
  BIO* bio = BIO_new(method);
  if (bio == nullptr) return nullptr;
  BIO_set_data(bio, new TimedSocket{fd, clock});
  BIO_set_init(bio, 1);
  return bio;
}

}  // namespace nettools::http
