// The multi-query DNS client core: owns in-flight queries and counters, driven by a libuv loop.
// No N-API here: the binding adapts it to JS.
#pragma once

#include <openssl/ssl.h>
#include <sys/socket.h>
#include <uv.h>

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

#include "common/random.h"
#include "dns/dns_resend_timer.h"
#include "dns/dns_resolver_window.h"
#include "dns/dns_deadlines.h"
#include "dns/dns_message.h"
#include "dns/dns_status.h"

namespace nettools::dns {

struct QuerySpec {
  std::string name;  // dotted ASCII
  uint16_t type = 0;
  sockaddr_storage server{};
  uint32_t timeout_ms = 0;  // the whole budget for this query, retries and TCP included
  bool dnssec = false;      // DO bit set
  std::string subnet;       // ECS option payload, or empty
  std::string tls_name;     // DoT: the name the resolver's certificate must be valid for; empty: UDP
};

// How an answer came: over UDP, over TCP after a truncated UDP answer, or over DoT.
enum class Transport : uint8_t { kUdp = 0, kTcp = 1, kTls = 2 };

struct CnameLink {
  std::string name;
  std::string target;
  uint32_t ttl = 0;
};

struct QueryOutcome {
  Status status = Status::kOk;  // a wire error here means the TCP or TLS answer was malformed
  std::string detail;           // a TLS failure's reason, or empty
  uint8_t rcode = 0;
  uint16_t flags = 0;
  double rtt_ms = 0;
  Transport transport = Transport::kUdp;
  uint8_t sends = 0;  // UDP datagrams and TCP queries this query sent (the resolver budget charges them)
  std::vector<Record> records;
  std::vector<CnameLink> chain;
  Edns edns;                  // the answer's OPT record, as read
  std::vector<Record> rrsigs;  // every RRSIG of the answer section (only a DO query gets them)
};

struct Counters {
  uint64_t queries = 0;            // queries started
  uint64_t sent = 0;               // packets sent, UDP sends and TCP queries
  uint64_t answered = 0;           // queries that got an accepted response
  uint64_t timeouts = 0;
  uint64_t retries = 0;            // UDP resends within the budget
  uint64_t tcp_fallbacks = 0;      // truncated UDP answers retried over TCP
  uint64_t mismatched_dropped = 0; // wrong source, ID or question: dropped, kept listening
  uint64_t malformed_dropped = 0;  // unparseable datagrams: dropped, kept listening
  uint64_t errors = 0;             // queries ended by a transport or wire error
  uint64_t cancelled = 0;
  uint64_t tls_connections = 0;    // DoT connections opened
};

class QueryTask;
class TlsChannel;
class UdpChannel;

// libuv error -> our transport status.
Status StatusFromUv(int err);

// One engine: shared UDP sockets, one timer for every deadline, the in-flight queries and the counters.
class EngineCore : public std::enable_shared_from_this<EngineCore> {
 public:
  using Done = std::function<void(uint32_t id, QueryOutcome& outcome)>;

  // `teardown` is held by the engine until Shutdown and by each of its libuv handles until that handle's
  // close callback has run, so its owner learns from its release that nothing of the engine is left in
  // the loop (the binding lets environment teardown wait for that).
  // `window`: queries on the wire to one resolver at once (see ResolverWindow). `tls_ca_file`: a PEM file
  // of trust anchors DoT resolvers may be verified against besides the system's, or empty.
  EngineCore(uv_loop_t* loop, Done done, std::shared_ptr<void> teardown = nullptr, uint32_t window = ResolverWindow::kMaxInFlight,
             std::string tls_ca_file = std::string());
  ~EngineCore();
  EngineCore(const EngineCore&) = delete;
  EngineCore& operator=(const EngineCore&) = delete;

  // Starts a query; `done` is called once from the loop unless the query is cancelled first.
  Status Start(const QuerySpec& spec, uint32_t* id);
  // Ends the query without calling `done` for it; `sends`, when given, gets the packets it sent until then
  // (they were sent all the same, and the resolver budget charges them).
  bool Cancel(uint32_t id, uint8_t* sends = nullptr);
  // Stops calling back, cancels every query and closes every handle: the owner is going away.
  void Shutdown();

  // A send libuv had queued failed later: the query ends with that error.
  void SendFailed(uint32_t id, Status s);

  size_t active() const { return active_.size(); }
  size_t open_sockets() const { return channels_.size(); }
  size_t open_tls_connections() const { return tls_channels_.size(); }
  // Every open socket `ms` older, as if that much time had passed for them alone: a test of the age
  // limit does not wait for it. An idle socket past its age closes on the engine's next timer turn; so
  // does an idle DoT connection past its idle time.
  void AgeSockets(uint64_t ms);
  const Counters& counters() const { return counters_; }

 private:
  friend class QueryTask;
  friend class TlsChannel;
  friend class UdpChannel;

  // The socket for a new query to a resolver of this family, rotating the current one when it is used up.
  UdpChannel* ChannelFor(int family, Status* status);
  void ChannelIdle(UdpChannel* ch);
  void ChannelClosing(UdpChannel* ch);
  // The socket has datagrams waiting: flush them before the loop next waits for I/O.
  void ChannelQueued(UdpChannel* ch);
  void FlushAll();
  // Flush (and admit waiting queries) before the loop next waits for I/O.
  void WantFlush();
  // A query to `server` left the resolver's window; a waiting one gets its slot at the next flush.
  void SlotFreed(uint64_t server);
  void AdmitWaiting();
  // The open DoT connection to `server` under `name`, or a new one.
  TlsChannel* TlsChannelFor(const sockaddr_storage& server, const std::string& name, Status* status);
  void TlsChannelIdle();
  // The connection has queries to write: at the end of the loop phase, with the UDP sends.
  void TlsChannelQueued(TlsChannel* ch);
  void TlsChannelClosing(TlsChannel* ch);
  // The earliest idle DoT connection's end; false when none is idle.
  bool TlsIdleExpiry(uint64_t* due) const;
  void CloseIdleTls(uint64_t now);
  bool EnsureHandles();
  std::vector<uint8_t>& ReceiveBuffer();
  void Schedule(uint32_t id, uint64_t when_ms);
  void ArmTimer();
  void OnTimer();
  void Finished(uint32_t id, QueryOutcome& outcome);

  uv_loop_t* loop_;
  Done done_;
  std::shared_ptr<void> teardown_;
  Counters counters_;
  ResendTimer resend_;  // per resolver: when an unanswered UDP query is sent again
  ResolverWindow window_;  // per resolver: how many queries may be on the wire at once
  RandomPool ids_;  // transaction IDs
  uint32_t next_id_ = 1;
  std::unordered_map<uint32_t, QueryTask*> active_;
  DeadlineQueue deadlines_;
  // On the heap: libuv may call its close callback after this object is gone.
  uv_timer_t* timer_ = nullptr;
  uint64_t timer_due_ = 0;
  bool timer_armed_ = false;
  bool timer_refd_ = false;
  UdpChannel* current_v4_ = nullptr;
  UdpChannel* current_v6_ = nullptr;
  std::vector<UdpChannel*> channels_;  // every open socket, current and retired
  // Sends queued during a loop phase go out at its end: in the check phase after I/O callbacks, in the
  // prepare phase for queries started from timers, immediates or the main script.
  uv_prepare_t* prepare_ = nullptr;
  uv_check_t* check_ = nullptr;
  std::vector<UdpChannel*> queued_;
  // For recvmmsg: libuv reads one datagram per 64 KiB slice, up to 20 per call.
  std::vector<uint8_t> receive_buffer_;
  // DoT: one client context, made at the first DoT query; one connection per resolver and name.
  std::string tls_ca_file_;
  SSL_CTX* tls_ctx_ = nullptr;
  std::unordered_map<std::string, TlsChannel*> tls_channels_;
  std::vector<TlsChannel*> tls_queued_;
  bool shut_down_ = false;
};

}  // namespace nettools::dns
