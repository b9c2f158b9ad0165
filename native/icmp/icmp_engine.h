// The ping engine: one ICMP socket per family shared by every ping in flight, driven by the host's
// libuv loop (uv_poll_t on each socket, one uv_timer_t for every session's wake-ups). No threads, nothing
// blocks.
#pragma once

#include <uv.h>

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

#include "common/ip_bytes.h"
#include "common/random.h"
#include "icmp/icmp_codec.h"
#include "icmp/icmp_limits.h"
#include "icmp/icmp_seq_table.h"
#include "icmp/icmp_socket.h"
#include "icmp/icmp_status.h"
#include "icmp/icmp_wake_heap.h"

namespace nettools::icmp {

// An IPv4 or IPv6 socket address: 28 bytes where sockaddr_storage takes 128, so that a session's fields
// read at every echo share fewer cache lines (Engine::Session).
union SocketAddress {
  sockaddr sa;
  sockaddr_in v4;
  sockaddr_in6 v6;
};

struct PingOptions {
  Family family = Family::kV4;
  SocketAddress address{};  // filled by SetAddress
  uint32_t count = 1;
  uint32_t interval_ms = 1000;
  uint32_t timeout_ms = 1000;
  uint32_t size = 56;
  bool has_ttl = false;  // else the system default
  uint32_t ttl = 0;
  // A trace: echo i goes out with TTL / hop limit 1 + i / probes_per_ttl, and the echoes leave pace_us
  // apart instead of interval_ms (a whole path probed within a few ms). 0: a ping.
  uint32_t probes_per_ttl = 0;
  uint32_t pace_us = 0;
  // A metered ping (a long streamed one, paid for a round at a time): only the first `grant` echoes may
  // go out until Extend allows more; its echoes are reported as they are decided (it needs `progress`)
  // and not kept for its result, so that what it holds does not grow with `count`. 0: all of count, a
  // ping or trace whose result lists every echo.
  uint32_t grant = 0;
};

// Puts the address's bytes (4 for IPv4, 16 for IPv6, network order: parsed once, in TypeScript) into
// opts->address. A guard: bytes whose length is not the family's, or an IPv4-mapped IPv6, are refused.
Status SetAddress(Family family, const uint8_t* bytes, size_t length, PingOptions* opts);

// A guard, not the validation (TypeScript does that): refuses what breaks the engine's preconditions,
// with the limits of icmp_limits.h.
Status CheckOptions(const PingOptions& opts);

struct EchoOutcome {
  ReplyStatus status = ReplyStatus::kTimeout;
  double rtt_ms = -1;  // a reply's or an ICMP error's round trip; -1 when nothing came in time
  int ttl = -1;
  size_t bytes = 0;
  IpBytes from;        // who answered (or sent the error); empty when unknown
  const char* reason = nullptr;  // errors only
  int icmp_type = -1;  // the answer's ICMP type and code (echo reply or error); -1 when none came
  int icmp_code = -1;
};

struct PingResult {
  std::vector<EchoOutcome> echoes;  // index = sequence within the session
  uint32_t duplicates = 0;
  double duration_ms = 0;
};

struct FamilyState {
  bool open = false;
  SocketKind kind = SocketKind::kDgram;
  int error = 0;  // errno that refused the last kind tried
  uint16_t id = 0;
  size_t in_flight = 0;  // sequences reserved
  uint32_t drops = 0;    // kernel drops on the socket (SO_RXQ_OVFL)
  uint64_t stray = 0;    // parsed replies and errors that matched no echo of ours
  uint64_t stray_errors = 0;  // of those, the ICMP errors (a forged or foreign error quoting no probe of ours)
  uint64_t sent = 0;          // echo requests the kernel took
  uint64_t trace_sent = 0;    // of those, the probes of trace sessions: ping and trace share the engine
};

class Engine {
 public:
  using DoneFn = std::function<void(uint64_t session, PingResult&& result)>;
  // One echo's outcome the moment it is decided (index = sequence within the session), for sessions
  // started with `progress`. It may cancel any session or close the engine (the binding only gathers
  // them, for the end of the frame: SetFrameEnd).
  using EchoFn = std::function<void(uint64_t session, uint32_t index, const EchoOutcome& outcome)>;

  // Opens the sockets now; a family that cannot open stays closed and reports why.
  static Status Create(uv_loop_t* loop, KindPreference pref, DoneFn done, Engine** out, EchoFn echo = nullptr);

  // Starts a session; the first echo goes out on the next loop turn and done is called exactly once
  // (unless cancelled or the engine is closed first). With `progress`, each echo's outcome also goes to
  // the engine's EchoFn as it is decided, in decision order, before done. A duplicate reply after its
  // echo was decided is no new outcome: it only counts in the result's duplicates.
  Status Start(const PingOptions& opts, uint64_t* session, bool progress = false);
  // Lets a metered session send n more echoes at its pace: a session that has sent all it was granted
  // waits, and the next echo goes out at its place in the pace, or at once if that has passed (the pace
  // then goes on from there: the echoes it waited for do not go out together). The sequences of its
  // echoes all settled before are let go, and n new ones held: kSeqExhausted (nothing changed) when the
  // socket has not n free, kInvalidOptions past count. A session that ended or was cancelled: kOk.
  Status Extend(uint64_t session, uint32_t n);
  // Stops sending, frees the session's sequences; done is not called.
  void Cancel(uint64_t session);
  // Closes the sockets and the timer; once libuv has released every handle, calls closed (if any) and
  // frees the engine, always on a later loop turn.
  void Close(std::function<void()> closed = nullptr);

  // Called as the engine's outermost frame (a poll of a socket, or the timer firing) returns, after every
  // EchoFn and DoneFn call of that frame: a caller that gathers the outcomes hands them on there. It may
  // do what those may (start, cancel, close).
  void SetFrameEnd(std::function<void()> frame_end) { frame_end_ = std::move(frame_end); }

  FamilyState state(Family family) const;
  size_t sessions() const { return sessions_.size(); }

 private:
  struct Echo;
  struct Session;
  struct Socket;
  class Frame;

  Engine(uv_loop_t* loop, DoneFn done, EchoFn echo);
  ~Engine();

  Socket& socket(Family family);
  void OpenSocket(Socket& s, KindPreference pref, uint16_t raw_id);
  static void OnPoll(uv_poll_t* handle, int status, int events);
  void Drain(Socket& s, bool errqueue);
  void DrainReplies(Socket& s);
  void HandlePacket(Socket& s, const uint8_t* data, const Received& rx);
  static void Stray(Socket& s, bool error = false);
  bool SettleWithError(Session* session, Echo& e, const Received& rx, uint8_t type, uint8_t code, const IpBytes& from);
  // Counts an echo as decided and reports it when the session asked to; false when the report stopped
  // the session (cancelled it or closed the engine): the caller must then leave it alone.
  bool Settled(Session* session, const Echo& e);
  void FinishIfDone(Session* session);
  void HandleQueuedError(Socket& s, const uint8_t* data, const Received& rx);
  Session* Owner(Socket& s, const ParsedPacket& p, uint32_t* index);
  static void OnTimer(uv_timer_t* handle);
  void Fire();
  void Arm();
  bool Coalescing() const;
  static bool Tight(const Session& session);  // echoes under 100 ms apart: no slack while one lives
  void Advance(Session* session, uint64_t now);
  bool SendNext(Session* session);  // false as Settled
  bool SettleTimeouts(Session* session, uint64_t now_ns);  // false as Settled
  static uint32_t FirstOpen(Session* session);
  static bool Hold(Session* session, uint32_t end);  // room for echoes up to end; false: no sequences
  static bool HasDue(Session* session, uint64_t now_ns);  // an echo in flight past its deadline
  static uint64_t NextWake(Session* session);
  static uint64_t IntervalNs(const PingOptions& o);
  static double RttMs(const Echo& e, const Received& rx);
  void Schedule(Session* session);
  void Finish(Session* session);
  void Drop(Session* session);
  void FreeDropped();
  void HandleClosed();
  void Destroy();

  uv_loop_t* loop_;
  DoneFn done_;
  EchoFn echo_;
  std::function<void()> frame_end_;
  std::function<void()> closed_;
  std::unique_ptr<Socket> v4_;
  std::unique_ptr<Socket> v6_;
  std::unique_ptr<ReceiveBatch> rx_;  // the normal queue's datagrams, read a batch at a time
  std::unordered_map<uint64_t, Session*> sessions_;
  // Every session's next wake-up (by its slot) and the one timer armed for the earliest of them.
  WakeHeap wake_;
  std::vector<Session*> wake_owner_;  // per slot
  uv_timer_t timer_{};
  uint64_t armed_ns_ = UINT64_MAX;  // the wake-up the timer is armed for; UINT64_MAX when stopped
  bool firing_ = false;             // inside Fire, which arms the timer once at its end
  // Live sessions whose echoes are closer together than kCoalesceBelowIntervalNs: while there is one, the
  // timer is armed without slack (Arm).
  uint32_t tight_sessions_ = 0;
  // Engine frames (a poll or the timer) on the stack. A session dropped inside one is freed only when the
  // outermost returns: whoever called back into JavaScript may still look at it.
  int depth_ = 0;
  std::vector<Session*> dropped_;
  RandomPool random_;  // the raw-socket identifier and each session's payload cookie
  uint64_t next_session_ = 1;
  bool closing_ = false;
  int open_handles_ = 0;
};

}  // namespace nettools::icmp
