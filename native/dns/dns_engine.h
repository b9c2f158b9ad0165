// The multi-query DNS client core: owns in-flight queries and counters, driven by a libuv loop.
// No N-API here: the binding adapts it to JS.
#pragma once

#include <sys/socket.h>
#include <uv.h>

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

#include "dns/dns_message.h"
#include "dns/dns_status.h"

namespace nettools::dns {

struct QuerySpec {
  std::string name;  // dotted ASCII
  uint16_t type = 0;
  sockaddr_storage server{};
  uint32_t timeout_ms = 0;  // the whole budget for this query, retries and TCP included
};

struct CnameLink {
  std::string name;
  std::string target;
  uint32_t ttl = 0;
};

struct QueryOutcome {
  Status status = Status::kOk;  // a wire error here means the TCP answer was malformed
  uint8_t rcode = 0;
  uint16_t flags = 0;
  double rtt_ms = 0;
  bool tcp = false;
  std::vector<Record> records;
  std::vector<CnameLink> chain;
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
};

class QueryTask;

class EngineCore : public std::enable_shared_from_this<EngineCore> {
 public:
  using Done = std::function<void(uint32_t id, QueryOutcome& outcome)>;

  EngineCore(uv_loop_t* loop, Done done);
  EngineCore(const EngineCore&) = delete;
  EngineCore& operator=(const EngineCore&) = delete;

  // Starts a query; `done` is called once from the loop unless the query is cancelled first.
  Status Start(const QuerySpec& spec, uint32_t* id);
  // Closes the query's sockets; `done` is not called for it.
  bool Cancel(uint32_t id);
  void CancelAll();
  // Stops calling back: the owner is going away.
  void Detach();

  size_t active() const { return active_.size(); }
  const Counters& counters() const { return counters_; }

 private:
  friend class QueryTask;
  void Finished(uint32_t id, QueryOutcome& outcome);

  uv_loop_t* loop_;
  Done done_;
  Counters counters_;
  uint32_t next_id_ = 1;
  std::unordered_map<uint32_t, QueryTask*> active_;
};

}  // namespace nettools::dns
