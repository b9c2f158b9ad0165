// One query to one resolver: UDP with a fresh random port and ID, one resend at half the budget,
// TCP when the answer is truncated, and a deadline over all of it.
#pragma once

#include <uv.h>

#include <array>
#include <cstdint>
#include <memory>
#include <vector>

#include "dns/dns_engine.h"
#include "dns/dns_name.h"

namespace nettools::dns {

class QueryTask {
 public:
  QueryTask(std::shared_ptr<EngineCore> core, uint32_t id);
  QueryTask(const QueryTask&) = delete;
  QueryTask& operator=(const QueryTask&) = delete;

  Status Begin(const QuerySpec& spec);
  // Closes every handle; the task frees itself once libuv has released them all.
  void Close();

 private:
  static void OnAlloc(uv_handle_t* handle, size_t suggested, uv_buf_t* buf);
  static void OnUdpRecv(uv_udp_t* udp, ssize_t nread, const uv_buf_t* buf, const sockaddr* addr, unsigned flags);
  static void OnUdpSend(uv_udp_send_t* req, int status);
  static void OnTimer(uv_timer_t* timer);
  static void OnTcpConnect(uv_connect_t* req, int status);
  static void OnTcpWrite(uv_write_t* req, int status);
  static void OnTcpRead(uv_stream_t* stream, ssize_t nread, const uv_buf_t* buf);
  static void OnClosed(uv_handle_t* handle);

  Status SendUdp();
  void OnDatagram(const uint8_t* data, size_t size, const sockaddr* from);
  void StartTcp();
  void DrainTcp();
  void Accept(const Message& m, bool tcp);
  void Fail(Status s);
  void Finish(QueryOutcome& outcome);
  void CloseHandle(uv_handle_t* handle, bool* open);

  std::shared_ptr<EngineCore> core_;
  uint32_t id_;
  sockaddr_storage server_{};
  Name qname_;
  uint16_t qtype_ = 0;
  uint16_t txid_ = 0;
  std::vector<uint8_t> packet_;   // the query as sent over UDP
  std::vector<uint8_t> tcp_out_;  // the same query with its 2-byte length prefix
  std::vector<uint8_t> tcp_in_;   // stream bytes not yet consumed
  std::array<uint8_t, 4096> in_{};
  uint64_t started_ns_ = 0;
  int timer_fires_ = 0;
  uint32_t timeout_ms_ = 0;
  bool finished_ = false;
  bool closing_ = false;

  uv_udp_t udp_{};
  uv_timer_t timer_{};
  uv_tcp_t tcp_{};
  bool udp_open_ = false;
  bool timer_open_ = false;
  bool tcp_open_ = false;
  int closes_pending_ = 0;
  std::array<uv_udp_send_t, 2> send_reqs_{};
  int sends_ = 0;
  uv_connect_t connect_req_{};
  uv_write_t write_req_{};
};

}  // namespace nettools::dns
