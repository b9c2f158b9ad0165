#include "http/http_exchange.h"

#include <netinet/in.h>
#include <netinet/tcp.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <vector>

#include "common/errno_name.h"
#include "common/own_handles.h"
#include "common/stream_connect.h"
#include "http/http_timed_socket.h"
#include "tcp/tcp_connector.h"

namespace nettools::http {

enum class Step { kConnecting, kHandshaking, kWriting, kReading };

struct Exchange {
  uv_poll_t poll{};
  uv_timer_t timer{};
  Exchanger* owner = nullptr;
  uint64_t id = 0;
  int fd = -1;
  bool polling = false;  // poll initialised on fd
  int events = 0;        // what the poll waits for now
  int closing = 0;       // handles whose close callback has yet to run
  bool in_start = false;
  bool concluded = false;  // the result is final; delivered from the timer when it came inside Start
  bool peer_closed = false;  // the server's FIN (or close_notify) was read
  bool linger = false;       // the answer is whole and the server has yet to close: wait for it (Finish)
  size_t drained = 0;        // bytes read and dropped while lingering
  Step step = Step::kConnecting;
  ExchangeSpec spec;
  ExchangeResult result;
  SSL* ssl = nullptr;
  EVP_MD_CTX* md = nullptr;
  ResponseParser parser;
  size_t written = 0;
  uint64_t t0_ns = 0;    // just before connect()
  uint64_t last_ns = 0;  // the end of the phase before
  RxClock clock;         // this loop callback's correction for the wait of what it reads
  std::vector<uint8_t> body;

  explicit Exchange(ExchangeSpec s) : spec(std::move(s)), parser(spec.head_request) {}
};

namespace {

constexpr size_t kReadChunk = 16384;
// How long a connection whose answer is whole waits for the server's FIN, and how much it reads and drops
// meanwhile, before it closes first after all.
constexpr uint64_t kLingerMs = 1000;
constexpr size_t kLingerDrainBytes = 65536;

// The phase that ends now (less what this callback's bytes waited for us): its length, and the next one
// starts there.
uint64_t EndPhase(Exchange* e) {
  uint64_t now = e->clock.Now();
  if (now < e->last_ns) now = e->last_ns;
  const uint64_t spent = now - e->last_ns;
  e->last_ns = now;
  return spent;
}

void OnTimeout(uv_timer_t* handle);
void OnClosed(uv_handle_t* handle);

// Frees the TLS state and the body's hash, leaving the socket as it is.
void FreeSession(Exchange* e) {
  if (e->md != nullptr) EVP_MD_CTX_free(e->md);
  e->md = nullptr;
  // No close_notify is sent: the server closes (Connection: close), or the check gave up on it.
  if (e->ssl != nullptr) SSL_free(e->ssl);
  e->ssl = nullptr;
}

// Frees the TLS state and closes the socket at once (the poll first, as libuv asks); returns how many
// handles it started closing.
int CloseConnection(Exchange* e) {
  FreeSession(e);
  int closing = 0;
  if (e->polling) {
    e->polling = false;
    ReleaseHandle(&e->poll);
    uv_close(reinterpret_cast<uv_handle_t*>(&e->poll), OnClosed);
    ++e->closing;
    ++closing;
  }
  if (e->fd >= 0) close(e->fd);
  e->fd = -1;
  return closing;
}

void OnClosed(uv_handle_t* handle) {
  auto* e = static_cast<Exchange*>(handle->data);
  Exchanger* owner = e->owner;
  if (--e->closing == 0) delete e;
  owner->HandleClosed();
}

// The result is final, then it goes out, from the timer when this is still inside Start. A whole answer
// on a connection the server has yet to close leaves the socket open for the server to close first (see
// Finish); any other socket closes at once (before any JavaScript runs; the poll is closed first, as libuv
// asks): a failed exchange, and an answer cut at the cap, whose unread rest a close turns into a RST.
void Conclude(Exchange* e) {
  if (e->concluded) return;
  e->concluded = true;
  ExchangeResult& r = e->result;
  const uint64_t end = e->clock.Now();
  r.total_ns = end > e->t0_ns ? end - e->t0_ns : 0;
  if (e->md != nullptr && r.has_body) EVP_DigestFinal_ex(e->md, r.sha256, nullptr);
  e->linger = r.stage == Stage::kAnswered && r.failure == Failure::kNone && !r.truncated && !e->peer_closed && e->fd >= 0;
  if (e->linger) FreeSession(e);
  else for (int n = CloseConnection(e); n > 0; --n) e->owner->CountHandle();
  ERR_clear_error();
  if (e->in_start) {
    uv_timer_start(&e->timer, OnTimeout, 0, 0);
    return;
  }
  e->owner->Finish(e, true);
}

void Fail(Exchange* e, Stage stage, Failure failure, std::string code) {
  e->result.stage = stage;
  e->result.failure = failure;
  e->result.code = std::move(code);
  Conclude(e);
}

void OnPoll(uv_poll_t* handle, int status, int events);

void Want(Exchange* e, int events) {
  if (!e->polling) {
    if (uv_poll_init_socket(e->owner->loop(), &e->poll, e->fd) != 0) {
      return Fail(e, e->step == Step::kConnecting ? Stage::kConnect : Stage::kResponse, Failure::kError, "EBADF");
    }
    e->polling = true;
    e->poll.data = e;
    ClaimHandle(&e->poll);
  } else if (e->events == events) {
    return;
  }
  e->events = events;
  uv_poll_start(&e->poll, events, OnPoll);
}

// The handshake's end: its facts, and with verify on, the verdict before any byte of HTTP.
bool Secured(Exchange* e) {
  ExchangeResult& r = e->result;
  r.tls_ns = EndPhase(e);
  r.secured = true;
  r.has_tls = true;
  r.tls = FactsOf(e->ssl);
  if (e->spec.verify && r.tls.verify_result != X509_V_OK) {
    Fail(e, Stage::kHandshake, Failure::kError, r.tls.verify_error);
    return false;
  }
  return true;
}

// Steps the handshake; true once it is done and the request may go.
bool Handshake(Exchange* e) {
  if (e->ssl == nullptr) {
    e->ssl = NewCheckConnection(e->owner->ctx(), NewTimedSocketBio(e->fd, &e->clock), e->spec.server_name, e->spec.address);
    if (e->ssl == nullptr) {
      Fail(e, Stage::kHandshake, Failure::kError, "ERR_SSL_NO_CONNECTION");
      return false;
    }
  }
  ERR_clear_error();
  errno = 0;
  const int rc = SSL_connect(e->ssl);
  if (rc == 1) return Secured(e);
  const int saved = errno;
  const int err = SSL_get_error(e->ssl, rc);
  if (err == SSL_ERROR_WANT_READ) Want(e, UV_READABLE);
  else if (err == SSL_ERROR_WANT_WRITE) Want(e, UV_WRITABLE);
  else Fail(e, Stage::kHandshake, Failure::kError, TlsErrorCode(err, saved));
  return false;
}

// Writes what is left of the request; true once all of it is with the socket.
bool Write(Exchange* e) {
  const std::string& req = e->spec.request;
  while (e->written < req.size()) {
    const char* p = req.data() + e->written;
    const size_t left = req.size() - e->written;
    if (e->ssl != nullptr) {
      ERR_clear_error();
      errno = 0;
      const int rc = SSL_write(e->ssl, p, static_cast<int>(left));
      if (rc > 0) {
        e->written += static_cast<size_t>(rc);
        continue;
      }
      const int saved = errno;
      const int err = SSL_get_error(e->ssl, rc);
      if (err == SSL_ERROR_WANT_WRITE) Want(e, UV_WRITABLE);
      else if (err == SSL_ERROR_WANT_READ) Want(e, UV_READABLE);
      else Fail(e, Stage::kResponse, Failure::kError, TlsErrorCode(err, saved));
      return false;
    }
    const ssize_t n = send(e->fd, p, left, MSG_NOSIGNAL);
    if (n > 0) {
      e->clock.Sent();
      e->written += static_cast<size_t>(n);
      continue;
    }
    if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) Want(e, UV_WRITABLE);
    else Fail(e, Stage::kResponse, Failure::kError, ErrnoName(n < 0 ? errno : EPIPE));
    return false;
  }
  e->result.request_ns = EndPhase(e);
  e->result.sent = true;
  return true;
}

// Hashes what the parser decoded, up to the cap; true when the cap is reached (the rest is never read).
bool TakeBody(Exchange* e) {
  ExchangeResult& r = e->result;
  const uint64_t room = e->spec.body_max - r.body_bytes;
  const size_t take = e->body.size() > room ? static_cast<size_t>(room) : e->body.size();
  if (take > 0) EVP_DigestUpdate(e->md, e->body.data(), take);
  r.body_bytes += take;
  const bool over = e->body.size() > room;
  e->body.clear();
  return over;
}

// The head became whole: the answer is reported from here on, whatever happens to its body.
void HeadRead(Exchange* e) {
  ExchangeResult& r = e->result;
  if (r.has_head) return;
  r.has_head = true;
  r.head = e->parser.head();
  r.has_body = true;
  e->md = EVP_MD_CTX_new();
  if (e->md == nullptr || EVP_DigestInit_ex(e->md, EVP_sha256(), nullptr) != 1) {
    EVP_MD_CTX_free(e->md);
    e->md = nullptr;
    r.has_body = false;
  }
}

// Feeds the parser one read; true when the exchange ended in it.
bool Parse(Exchange* e, const uint8_t* data, size_t size) {
  ExchangeResult& r = e->result;
  if (!r.first_byte) {
    r.first_byte_ns = EndPhase(e);
    r.first_byte = true;
  }
  e->parser.Feed(data, size, &e->body);
  const ResponseParser::State state = e->parser.state();
  if (state == ResponseParser::State::kError) {
    Fail(e, Stage::kResponse, Failure::kError, ParseErrorCode(e->parser.error()));
    return true;
  }
  if (state == ResponseParser::State::kHead) return false;
  HeadRead(e);
  const bool over = e->md != nullptr && TakeBody(e);
  if (!over && state != ResponseParser::State::kDone) return false;
  r.truncated = over;
  r.transfer_ns = EndPhase(e);
  r.stage = Stage::kAnswered;
  Conclude(e);
  return true;
}

void Eof(Exchange* e) {
  e->peer_closed = true;
  e->parser.Eof();
  if (e->parser.state() == ResponseParser::State::kDone) {
    e->result.transfer_ns = EndPhase(e);
    e->result.stage = Stage::kAnswered;
    return Conclude(e);
  }
  // Closed before the answer was whole: as Node says a hang-up.
  if (e->parser.state() == ResponseParser::State::kError && e->parser.error() != ParseError::kInvalidEofState) {
    return Fail(e, Stage::kResponse, Failure::kError, ParseErrorCode(e->parser.error()));
  }
  Fail(e, Stage::kResponse, Failure::kError, "ECONNRESET");
}

// Reads until the socket has nothing more for now, or the exchange ends.
void Read(Exchange* e) {
  uint8_t buf[kReadChunk];
  for (;;) {
    if (e->ssl != nullptr) {
      ERR_clear_error();
      errno = 0;
      const int rc = SSL_read(e->ssl, buf, sizeof(buf));
      if (rc > 0) {
        if (Parse(e, buf, static_cast<size_t>(rc))) return;
        continue;
      }
      const int saved = errno;
      const int err = SSL_get_error(e->ssl, rc);
      if (err == SSL_ERROR_WANT_READ) return Want(e, UV_READABLE);
      if (err == SSL_ERROR_WANT_WRITE) return Want(e, UV_WRITABLE);
      if (err == SSL_ERROR_ZERO_RETURN || (err == SSL_ERROR_SYSCALL && saved == 0)) return Eof(e);
      return Fail(e, Stage::kResponse, Failure::kError, TlsErrorCode(err, saved));
    }
    const ssize_t n = TimedRecv(e->fd, buf, sizeof(buf), &e->clock);
    if (n > 0) {
      if (Parse(e, buf, static_cast<size_t>(n))) return;
      continue;
    }
    if (n == 0) return Eof(e);
    if (errno == EAGAIN || errno == EWOULDBLOCK) return Want(e, UV_READABLE);
    if (errno == EINTR) continue;
    return Fail(e, Stage::kResponse, Failure::kError, ErrnoName(errno));
  }
}

// Moves the exchange as far as the socket lets it now.
void Advance(Exchange* e) {
  if (e->step == Step::kHandshaking) {
    if (!Handshake(e)) return;
    e->step = Step::kWriting;
  }
  if (e->step == Step::kWriting) {
    if (!Write(e)) return;
    e->step = Step::kReading;
    return Want(e, UV_READABLE);
  }
  if (e->step == Step::kReading) Read(e);
}

void Connected(Exchange* e, uint64_t now) {
  e->result.connect_ns = now - e->t0_ns;
  e->result.connected = true;
  e->last_ns = now;
  e->step = e->spec.tls ? Step::kHandshaking : Step::kWriting;
  Advance(e);
}

void ConnectFailed(Exchange* e, int error, bool answered) {
  const tcp::Outcome outcome = tcp::Classify(error, answered);
  const Failure failure = outcome == tcp::Outcome::kRefused       ? Failure::kRefused
                          : outcome == tcp::Outcome::kUnreachable ? Failure::kUnreachable
                          : outcome == tcp::Outcome::kTimeout     ? Failure::kTimeout
                                                                  : Failure::kError;
  Fail(e, Stage::kConnect, failure, ErrnoName(error));
}

void OnPoll(uv_poll_t* handle, int status, int /*events*/) {
  const uint64_t now = MonotonicNs();  // first: a phase ends at the event, not after what runs next
  auto* e = static_cast<Exchange*>(handle->data);
  e->clock.Begin();
  if (e->step != Step::kConnecting) return Advance(e);
  // A socket error (a RST, an ICMP error) comes as status UV_EBADF; SO_ERROR says which.
  int error = 0;
  socklen_t len = sizeof(error);
  if (getsockopt(e->fd, SOL_SOCKET, SO_ERROR, &error, &len) != 0) error = errno;
  if (error == 0 && status < 0) error = -status;
  if (error != 0) return ConnectFailed(e, error, true);
  Connected(e, now);
}

void OnTimeout(uv_timer_t* handle) {
  auto* e = static_cast<Exchange*>(handle->data);
  if (e->concluded) return e->owner->Finish(e, true);
  e->clock.Pause();  // nothing read here: the time is the timer's
  ExchangeResult& r = e->result;
  const Stage stage = e->step == Step::kConnecting ? Stage::kConnect : e->step == Step::kHandshaking ? Stage::kHandshake : Stage::kResponse;
  if (r.has_head) {
    r.truncated = true;
    r.transfer_ns = EndPhase(e);
  }
  Fail(e, stage, Failure::kTimeout, "ETIMEDOUT");
}

// Lingering: reads and drops what still comes until the server's FIN, an error, the byte bound or the
// time bound; then the socket closes. The server, told Connection: close, is then the side that closes
// first and keeps the connection's TIME_WAIT: a client that closes first keeps one per check for a
// minute, and connect() on a machine holding tens of thousands of them walks them to pick a port.
void OnLingerReadable(uv_poll_t* handle, int status, int /*events*/) {
  auto* e = static_cast<Exchange*>(handle->data);
  if (status < 0) return e->owner->EndLinger(e);
  uint8_t buf[kReadChunk];
  for (;;) {
    const ssize_t n = recv(e->fd, buf, sizeof(buf), 0);
    if (n > 0) {
      e->drained += static_cast<size_t>(n);
      if (e->drained < kLingerDrainBytes) continue;
    } else if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) {
      return;
    } else if (n < 0 && errno == EINTR) {
      continue;
    }
    return e->owner->EndLinger(e);
  }
}

void OnLingerTimeout(uv_timer_t* handle) {
  auto* e = static_cast<Exchange*>(handle->data);
  e->owner->EndLinger(e);
}

void Connect(Exchange* e) {
  sockaddr_storage sa;
  const socklen_t sa_len = SockaddrOf(e->spec.address, e->spec.port, &sa);
  e->fd = socket(sa.ss_family, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
  if (e->fd < 0) return ConnectFailed(e, errno, false);
  // As curl does: TLS's last handshake flight and the request are small writes back to back, and Nagle
  // would hold the second until the first is acknowledged.
  const int one = 1;
  setsockopt(e->fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
  EnableRxTimestamps(e->fd);
  e->t0_ns = MonotonicNs();  // last before connect(): the SYN leaves inside it
  const int rc = connect(e->fd, reinterpret_cast<const sockaddr*>(&sa), sa_len);
  if (rc == 0) return Connected(e, MonotonicNs());
  if (errno != EINPROGRESS) return ConnectFailed(e, errno, false);
  const int settled = SettledConnectError(e->fd);
  const uint64_t now = MonotonicNs();
  if (settled == 0) return Connected(e, now);
  if (settled > 0) return ConnectFailed(e, settled, true);
  Want(e, UV_WRITABLE);
}

}  // namespace

// The kernel turns its receive timestamps on while any socket asks for them and off, through a static
// key patched into its code on every CPU, when the last one closes. An exchange's socket alone would flip
// that on and off around every check; this one holds it on while the engine lives.
Exchanger::Exchanger(uv_loop_t* loop, SSL_CTX* ctx, Done done) : loop_(loop), ctx_(ctx), done_(std::move(done)) {
  SSL_CTX_up_ref(ctx_);
  stamps_fd_ = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
  if (stamps_fd_ >= 0) EnableRxTimestamps(stamps_fd_);
}

Exchanger::~Exchanger() {
  SSL_CTX_free(ctx_);
  if (stamps_fd_ >= 0) close(stamps_fd_);
}

uint64_t Exchanger::Start(ExchangeSpec spec) {
  auto* e = new Exchange(std::move(spec));
  e->owner = this;
  e->id = next_id_++;
  uv_timer_init(loop_, &e->timer);
  e->timer.data = e;
  exchanges_.emplace(e->id, e);
  e->in_start = true;
  uv_timer_start(&e->timer, OnTimeout, e->spec.timeout_ms, 0);
  Connect(e);
  e->in_start = false;
  return e->id;
}

void Exchanger::Finish(Exchange* e, bool deliver) {
  exchanges_.erase(e->id);
  uv_timer_stop(&e->timer);
  if (e->linger && deliver && e->polling && !closing_) {
    lingering_.insert(e);
    uv_poll_start(&e->poll, UV_READABLE, OnLingerReadable);
    uv_timer_start(&e->timer, OnLingerTimeout, kLingerMs, 0);
    done_(e->id, e->result);
    return;
  }
  e->linger = false;
  open_handles_ += static_cast<size_t>(CloseConnection(e));
  uv_close(reinterpret_cast<uv_handle_t*>(&e->timer), OnClosed);
  ++e->closing;
  ++open_handles_;
  if (deliver) done_(e->id, e->result);
}

void Exchanger::EndLinger(Exchange* e) {
  lingering_.erase(e);
  e->linger = false;
  Finish(e, false);
}

void Exchanger::Cancel(uint64_t id) {
  auto it = exchanges_.find(id);
  if (it != exchanges_.end()) Finish(it->second, false);
}

void Exchanger::Close(std::function<void()> closed) {
  closing_ = true;
  closed_ = std::move(closed);
  while (!exchanges_.empty()) Finish(exchanges_.begin()->second, false);
  while (!lingering_.empty()) EndLinger(*lingering_.begin());
  if (open_handles_ == 0) HandleClosed();
}

void Exchanger::HandleClosed() {
  if (open_handles_ > 0) --open_handles_;
  if (!closing_ || open_handles_ > 0) return;
  std::function<void()> closed = std::move(closed_);
  delete this;
  if (closed) closed();
}

}  // namespace nettools::http
