#include "tcp/tcp_connector.h"

#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <ctime>

#include "common/own_handles.h"
#include "common/stream_connect.h"

namespace nettools::tcp {

struct Attempt {
  uv_poll_t poll{};
  uv_timer_t timer{};
  Connector* owner = nullptr;
  uint64_t id = 0;
  int fd = -1;
  bool polling = false;  // poll initialised on fd
  int closing = 0;       // handles whose close callback has yet to run
  uint64_t t0_ns = 0;
  // An outcome decided inside Start (connect() returned at once): delivered from the timer, so that a
  // result never arrives inside the call that started it.
  bool decided = false;
  ConnectResult early;
};

namespace {

uint64_t NowNs() {
  timespec ts{};
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return static_cast<uint64_t>(ts.tv_sec) * 1000000000u + static_cast<uint64_t>(ts.tv_nsec);
}

// `answered`: the error came back from the network (SO_ERROR after the wait), not from connect() itself.
ConnectResult ResultOf(int error, uint64_t elapsed_ns, bool answered = false) {
  ConnectResult r;
  r.outcome = error == 0 ? Outcome::kConnected : Classify(error, answered);
  r.error = error;
  r.elapsed_ns = elapsed_ns;
  return r;
}

void OnClosed(uv_handle_t* handle) {
  auto* attempt = static_cast<Attempt*>(handle->data);
  Connector* owner = attempt->owner;
  // libuv runs close callbacks in no promised order: the attempt goes with the last of its handles.
  if (--attempt->closing == 0) delete attempt;
  owner->HandleClosed();
}

void OnWritable(uv_poll_t* handle, int status, int /*events*/) {
  const uint64_t t1 = NowNs();  // first: the time is the event's, not what runs after it
  auto* attempt = static_cast<Attempt*>(handle->data);
  // libuv reports a socket error (POLLERR: a RST, an ICMP error) as status UV_EBADF; the socket's own
  // error says what it was, so it is read in either case.
  int error = 0;
  socklen_t len = sizeof(error);
  if (getsockopt(attempt->fd, SOL_SOCKET, SO_ERROR, &error, &len) != 0) error = errno;
  if (error == 0 && status < 0) error = -status;
  attempt->owner->Finish(attempt, ResultOf(error, t1 - attempt->t0_ns, true), true);
}

void OnTimer(uv_timer_t* handle) {
  auto* attempt = static_cast<Attempt*>(handle->data);
  if (attempt->decided) return attempt->owner->Finish(attempt, attempt->early, true);
  ConnectResult r;
  r.outcome = Outcome::kTimeout;
  r.elapsed_ns = NowNs() - attempt->t0_ns;
  attempt->owner->Finish(attempt, r, true);
}

// Opens the socket and calls connect(); true when the answer is to be awaited on the poll.
bool Connect(uv_loop_t* loop, Attempt* a, const IpBytes& address, uint16_t port) {
  sockaddr_storage sa;
  const socklen_t sa_len = SockaddrOf(address, port, &sa);
  a->fd = socket(sa.ss_family, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
  if (a->fd < 0) {
    a->decided = true;
    a->early = ResultOf(errno, 0);
    return false;
  }
  a->t0_ns = NowNs();  // last before connect(): the SYN leaves inside it
  const int rc = connect(a->fd, reinterpret_cast<const sockaddr*>(&sa), sa_len);
  const int error = rc == 0 ? 0 : errno;
  if (rc != 0 && error == EINPROGRESS) {
    const int settled = SettledConnectError(a->fd);
    if (settled >= 0) {
      a->decided = true;
      a->early = ResultOf(settled, NowNs() - a->t0_ns, true);
      return false;
    }
    const int init = uv_poll_init_socket(loop, &a->poll, a->fd);
    if (init == 0) {
      a->polling = true;
      a->poll.data = a;
      ClaimHandle(&a->poll);
      uv_poll_start(&a->poll, UV_WRITABLE, OnWritable);
      return true;
    }
    a->decided = true;
    a->early = ResultOf(-init, 0);
    return false;
  }
  // Decided inside connect(): established at once (loopback may), or refused before any packet left
  // (no route: ENETUNREACH).
  a->decided = true;
  a->early = ResultOf(error, NowNs() - a->t0_ns);
  return false;
}

}  // namespace

Outcome Classify(int error, bool answered) {
  // The kernel turns an ICMPv6 administratively-prohibited (and reject-route, policy-fail) into EACCES;
  // from connect() itself EACCES is a local refusal, an error of this server.
  if (error == EACCES) return answered ? Outcome::kUnreachable : Outcome::kError;
  switch (error) {
    case 0:
      return Outcome::kConnected;
    case ECONNREFUSED:
      return Outcome::kRefused;
    case EHOSTUNREACH:
    case ENETUNREACH:
      return Outcome::kUnreachable;
    case ETIMEDOUT:
      return Outcome::kTimeout;
    default:
      return Outcome::kError;
  }
}

uint64_t Connector::Start(const IpBytes& address, uint16_t port, uint32_t timeout_ms) {
  auto* a = new Attempt();
  a->owner = this;
  a->id = next_id_++;
  uv_timer_init(loop_, &a->timer);
  a->timer.data = a;
  attempts_.emplace(a->id, a);
  const bool awaiting = Connect(loop_, a, address, port);
  uv_timer_start(&a->timer, OnTimer, awaiting ? timeout_ms : 0, 0);
  return a->id;
}

// Closes the attempt's socket and handles, then hands its result on. The socket is closed with a plain
// close(): a FIN, the polite end of a connection that sent nothing, rather than SO_LINGER 0's RST, which
// the far side logs as an abort. The cost, TIME_WAIT on our side, is bounded by the per-target budget.
// uv_close stops watching the descriptor synchronously (as libuv's own uv_tcp_t does before closing its
// fd), so the descriptor is closed at once, and the FIN leaves before any JavaScript runs.
void Connector::Finish(Attempt* a, const ConnectResult& result, bool deliver) {
  attempts_.erase(a->id);
  uv_timer_stop(&a->timer);
  if (a->polling) {
    ReleaseHandle(&a->poll);
    uv_close(reinterpret_cast<uv_handle_t*>(&a->poll), OnClosed);
    ++a->closing;
    ++open_handles_;
  }
  if (a->fd >= 0) close(a->fd);
  a->fd = -1;
  uv_close(reinterpret_cast<uv_handle_t*>(&a->timer), OnClosed);
  ++a->closing;
  ++open_handles_;
  if (deliver) done_(a->id, result);
}

void Connector::Cancel(uint64_t id) {
  auto it = attempts_.find(id);
  if (it != attempts_.end()) Finish(it->second, ConnectResult(), false);
}

void Connector::Close(std::function<void()> closed) {
  closing_ = true;
  closed_ = std::move(closed);
  while (!attempts_.empty()) Finish(attempts_.begin()->second, ConnectResult(), false);
  if (open_handles_ == 0) HandleClosed();
}

void Connector::HandleClosed() {
  if (open_handles_ > 0) --open_handles_;
  if (!closing_ || open_handles_ > 0) return;
  std::function<void()> closed = std::move(closed_);
  delete this;
  if (closed) closed();
}

}  // namespace nettools::tcp
