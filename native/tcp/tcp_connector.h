// Timed TCP connects on the libuv loop: one fresh non-blocking socket per attempt, watched with uv_poll
// for writability, bounded by a uv_timer. No thread, no blocking call. The time is taken with
// CLOCK_MONOTONIC immediately before connect() and first thing in the writable callback, so it holds the
// handshake and the loop's wake-up, and none of the JavaScript that a net.Socket's 'connect' event runs
// (a loop turn later) before user code sees it. A handshake the kernel ended inside connect() (loopback, a
// local namespace) is seen by a poll without wait as the call returns, and timed there.
#pragma once

#include <uv.h>

#include <cstddef>
#include <cstdint>
#include <functional>
#include <unordered_map>

#include "common/ip_bytes.h"

namespace nettools::tcp {

enum class Outcome : int {
  kConnected = 0,
  kRefused,      // ECONNREFUSED: a RST answered the SYN
  kUnreachable,  // EHOSTUNREACH / ENETUNREACH (an ICMP unreachable, or no route), EACCES answered
  kTimeout,      // nothing within the attempt's timeout
  kError,        // any other errno, named in the result
};

struct ConnectResult {
  Outcome outcome = Outcome::kError;
  uint64_t elapsed_ns = 0;  // connect() to the outcome
  int error = 0;            // the errno behind it (0 when connected or timed out)
};

struct Attempt;

class Connector {
 public:
  using Done = std::function<void(uint64_t id, const ConnectResult& result)>;

  Connector(uv_loop_t* loop, Done done) : loop_(loop), done_(std::move(done)) {}
  Connector(const Connector&) = delete;
  Connector& operator=(const Connector&) = delete;

  // Starts one attempt to `address`:`port`; its result comes through `done`, never from inside Start.
  uint64_t Start(const IpBytes& address, uint16_t port, uint32_t timeout_ms);
  // Ends an attempt without its result (its socket closed at once).
  void Cancel(uint64_t id);
  // Cancels everything; `closed` runs once libuv has closed the last handle, and the connector is
  // deleted after it. Nothing may be called on it afterwards.
  void Close(std::function<void()> closed);
  size_t in_flight() const { return attempts_.size(); }

  // For the attempts' libuv callbacks.
  void Finish(Attempt* attempt, const ConnectResult& result, bool deliver);
  void HandleClosed();

 private:
  uv_loop_t* loop_;
  Done done_;
  std::unordered_map<uint64_t, Attempt*> attempts_;
  uint64_t next_id_ = 1;
  size_t open_handles_ = 0;  // of attempts that ended, until their close callbacks ran
  bool closing_ = false;
  std::function<void()> closed_;
};

// The outcome an errno stands for: from connect() itself, or `answered` by the network (SO_ERROR once the
// socket reported, where ICMP errors land: EHOSTUNREACH, ENETUNREACH, and EACCES for ICMPv6's
// administratively prohibited).
Outcome Classify(int error, bool answered);

}  // namespace nettools::tcp
