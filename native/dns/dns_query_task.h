// One query to one resolver: UDP on the engine's shared socket with a fresh random ID, once the resolver's
// window has room, one resend at the resolver's resend time, TCP (its own connection) when the answer is
// truncated, and a deadline over all of it, the wait for the window included. To a DoT resolver: on the
// engine's connection to it, no resend (TLS runs over TCP, which retransmits), sent once more on a new
// connection when the one it went on closes before answering.
#pragma once

#include <uv.h>

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "dns/dns_engine.h"
#include "dns/dns_name.h"

namespace nettools::dns {

class TlsChannel;
class UdpChannel;

class QueryTask {
 public:
  QueryTask(std::shared_ptr<EngineCore> core, uint32_t id);
  QueryTask(const QueryTask&) = delete;
  QueryTask& operator=(const QueryTask&) = delete;

  Status Begin(const QuerySpec& spec);
  // Sends it: at once from Begin when the resolver's window has room, else when the engine hands it a slot.
  Status Launch();
  bool waiting() const { return waiting_ && !finished_; }
  // Leaves the shared socket and closes the TCP connection if any; frees itself once libuv is done.
  void Close();
  // Close() for a query nobody waits for any more: returns the packets it really sent (a datagram still
  // queued is dropped unsent), read before the task may be freed.
  uint8_t Cancel();

  const sockaddr_storage& server() const { return server_; }
  const Name& qname() const { return qname_; }
  uint16_t qtype() const { return qtype_; }
  // The engine timer's next stop for this query: the resend, then the end of the budget.
  uint64_t deadline_ms() const { return deadline_ms_; }
  void OnDeadline();
  // An accepted UDP response from our resolver: the answer, or the switch to TCP when truncated. The
  // message is handed over: its records move into the outcome.
  void OnUdpAnswer(Message&& m);
  // DoT: the answer from the connection, or the connection's end before one came.
  void OnTlsAnswer(Message&& m);
  void OnTlsClosed(Status s, const std::string& detail);
  void Fail(Status s, const std::string& detail = std::string());

 private:
  static void OnTcpAlloc(uv_handle_t* handle, size_t suggested, uv_buf_t* buf);
  static void OnTcpConnect(uv_connect_t* req, int status);
  static void OnTcpWrite(uv_write_t* req, int status);
  static void OnTcpRead(uv_stream_t* stream, ssize_t nread, const uv_buf_t* buf);
  static void OnTcpClosed(uv_handle_t* handle);

  Status SendUdp();
  Status SendTls();
  void LeaveChannel();
  void StartTcp();
  void DrainTcp();
  void Accept(Message&& m, Transport transport);
  void Finish(QueryOutcome& outcome);

  std::shared_ptr<EngineCore> core_;
  uint32_t id_;
  sockaddr_storage server_{};
  Name qname_;
  uint16_t qtype_ = 0;
  uint16_t txid_ = 0;
  std::vector<uint8_t> packet_;  // the query as sent over UDP
  uint64_t started_ns_ = 0;
  uint64_t started_ms_ = 0;
  uint64_t deadline_ms_ = 0;
  uint32_t timeout_ms_ = 0;
  bool resent_ = false;  // the one resend is spent (or none fits in the budget)
  uint8_t sends_ = 0;
  bool finished_ = false;
  bool closing_ = false;
  bool waiting_ = false;     // for a slot in the resolver's window: nothing sent yet
  bool holds_slot_ = false;  // sent, or being sent: counts in the resolver's window until closed
  uint64_t server_key_ = 0;
  UdpChannel* channel_ = nullptr;  // while registered on a shared socket
  std::string tls_name_;                // DoT only: the name the certificate is checked against
  TlsChannel* tls_channel_ = nullptr;   // while waiting on a DoT connection
  bool tls_resent_ = false;             // the one send on a fresh connection is spent

  // TCP fallback only: allocated when a truncated answer sends us there.
  struct Tcp {
    uv_tcp_t handle{};
    uv_connect_t connect_req{};
    uv_write_t write_req{};
    std::vector<uint8_t> out;  // the query with its 2-byte length prefix
    std::vector<uint8_t> in;   // stream bytes not yet consumed
    std::vector<uint8_t> buf;  // libuv reads into this
    std::shared_ptr<void> teardown;  // the engine's (see EngineCore), held until the close callback ran
    bool open = false;
  };
  std::unique_ptr<Tcp> tcp_;
};

}  // namespace nettools::dns
