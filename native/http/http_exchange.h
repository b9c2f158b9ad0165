// One HTTP request on one connection of its own, made and timed on the libuv loop the way curl's -w
// times it: a non-blocking socket watched by one uv_poll, TLS on that socket for https, the request
// written, the answer read through ResponseParser and its body hashed up to a cap, all bounded by one
// uv_timer. No thread and no blocking call. Each phase is stamped with CLOCK_MONOTONIC first thing where it
// ends (inside the call that ended it, or first in the callback that saw it), so a phase holds the network
// and the peer, not the JavaScript of a busy server; the next step starts at once from that stamp.
#pragma once

#include <uv.h>

#include <cstddef>
#include <cstdint>
#include <functional>
#include <openssl/ssl.h>
#include <string>
#include <unordered_map>
#include <unordered_set>

#include "common/ip_bytes.h"
#include "http/http_response_parser.h"
#include "http/http_tls.h"

namespace nettools::http {

struct ExchangeSpec {
  IpBytes address;
  uint16_t port = 0;
  uint32_t timeout_ms = 0;
  bool tls = false;
  std::string server_name;  // https with a host name: SNI and the name to match; empty for an IP literal
  bool verify = true;       // https: a certificate that does not verify ends the exchange before the request
  std::string request;      // the whole request head, as it is to be written
  bool head_request = false;
  uint64_t body_max = 0;  // bytes of body read and hashed; past it the connection is closed
};

// Where an exchange ended.
enum class Stage : int {
  kConnect = 0,  // no connection
  kHandshake,    // connected, no TLS session fit to send on
  kResponse,     // the request went (or was going), no whole answer
  kAnswered,     // a whole answer, or its body cut at the cap
};

enum class Failure : int { kNone = 0, kRefused, kUnreachable, kTimeout, kError };

struct ExchangeResult {
  Stage stage = Stage::kConnect;
  Failure failure = Failure::kNone;
  std::string code;  // errno name, Node's TLS code, or the HTTP parser's
  // Nanoseconds, each phase from the end of the one before; 0 when the phase was not reached.
  uint64_t connect_ns = 0;     // connect() to established
  uint64_t tls_ns = 0;         // to the handshake's end
  uint64_t request_ns = 0;     // to the request's last byte handed to the socket
  uint64_t first_byte_ns = 0;  // to the answer's first byte read
  uint64_t transfer_ns = 0;    // to the last byte read (or the cap)
  uint64_t total_ns = 0;       // connect() to the end, whatever the end was
  bool connected = false, secured = false, sent = false, first_byte = false;
  bool has_tls = false;
  TlsFacts tls;
  bool has_head = false;
  ResponseHead head;
  bool has_body = false;  // the head was whole: a body (possibly empty) was read
  uint64_t body_bytes = 0;
  bool truncated = false;
  uint8_t sha256[32] = {};
};

struct Exchange;

class Exchanger {
 public:
  using Done = std::function<void(uint64_t id, const ExchangeResult& result)>;

  // `ctx` is the https exchanges' TLS context; the exchanger holds a reference to it until it is deleted.
  Exchanger(uv_loop_t* loop, SSL_CTX* ctx, Done done);
  ~Exchanger();
  Exchanger(const Exchanger&) = delete;
  Exchanger& operator=(const Exchanger&) = delete;

  // Starts one exchange; its result comes through `done`, never from inside Start.
  uint64_t Start(ExchangeSpec spec);
  // Ends an exchange without its result (its socket closed at once).
  void Cancel(uint64_t id);
  // Cancels everything; `closed` runs once libuv has closed the last handle, and the exchanger is
  // deleted after it. Nothing may be called on it afterwards.
  void Close(std::function<void()> closed);
  size_t in_flight() const { return exchanges_.size(); }

  // For the exchanges' libuv callbacks.
  void Finish(Exchange* exchange, bool deliver);
  void EndLinger(Exchange* exchange);
  void HandleClosed();
  SSL_CTX* ctx() const { return ctx_; }
  uv_loop_t* loop() const { return loop_; }
  void CountHandle() { ++open_handles_; }  // a handle an exchange closed before its Finish

 private:
  uv_loop_t* loop_;
  SSL_CTX* ctx_;
  Done done_;
  std::unordered_map<uint64_t, Exchange*> exchanges_;
  std::unordered_set<Exchange*> lingering_;
  uint64_t next_id_ = 1;
  size_t open_handles_ = 0;
  bool closing_ = false;
  std::function<void()> closed_;
  // A socket that only holds the kernel's receive timestamps on (see the constructor).
  int stamps_fd_ = -1;
};

}  // namespace nettools::http
