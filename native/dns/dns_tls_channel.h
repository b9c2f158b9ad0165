// One DoT connection (RFC 7858) to one resolver under one name, on the engine's loop: a non-blocking TCP
// socket, TLS through memory buffers, queries pipelined (2-byte length framing, RFC 7766), answers matched
// to their queries by ID and question, in whatever order they come. Kept open between queries and
// reused; closed after kIdleMs without a query, when the resolver closes it, or on any TLS error, which
// every query waiting on it is told (the next query opens a new connection).
#pragma once

#include <openssl/ssl.h>
#include <sys/socket.h>
#include <uv.h>

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "common/random.h"
#include "dns/dns_status.h"
#include "dns/dns_stream_frames.h"

namespace nettools::dns {

class EngineCore;
class QueryTask;

class TlsChannel {
 public:
  static constexpr uint64_t kIdleMs = 10000;

  // Starts connecting; nullptr with `status` set when no socket or TLS connection could be made.
  static TlsChannel* Open(EngineCore* core, uv_loop_t* loop, SSL_CTX* ctx, const sockaddr_storage& server,
                          const std::string& name, Status* status);
  TlsChannel(const TlsChannel&) = delete;
  TlsChannel& operator=(const TlsChannel&) = delete;

  // Queues the query (its ID rewritten to one no query waiting on this connection has) for the end of the
  // loop phase (the engine calls WriteUnsent), or for the end of the handshake. `txid` gets the ID.
  Status Send(QueryTask* task, std::vector<uint8_t>* packet, RandomPool* ids, uint16_t* txid);
  // The query settled or was cancelled: it waits no longer, and is not sent if it had not been yet
  // (returns 1 then, else 0).
  size_t Release(uint16_t txid);
  // Writes every queued query in one TLS write and one send; a failure closes the connection.
  void WriteUnsent();
  // Closes now; every waiting query is told `why`. Frees itself once libuv has released the socket.
  void Close(Status why, const std::string& detail = std::string());

  bool idle() const { return waiting_.empty(); }
  bool established() const { return state_ == State::kOpen; }
  uint64_t expires_ms() const { return idle_since_ms_ + kIdleMs; }
  // Idle `ms` longer than it was (never before the loop's start): tests reach the idle limit at once.
  void Age(uint64_t ms) { idle_since_ms_ = idle_since_ms_ > ms ? idle_since_ms_ - ms : 0; }

 private:
  enum class State { kConnecting, kHandshaking, kOpen, kClosing };
  struct Waiting {
    uint16_t txid;
    QueryTask* task;
  };
  struct Unsent {
    uint16_t txid;
    std::vector<uint8_t> frame;
  };
  struct WriteReq;

  TlsChannel(EngineCore* core, SSL* ssl);
  ~TlsChannel();

  static void OnConnect(uv_connect_t* req, int status);
  static void OnAlloc(uv_handle_t* handle, size_t suggested, uv_buf_t* buf);
  static void OnRead(uv_stream_t* stream, ssize_t nread, const uv_buf_t* buf);
  static void OnWrite(uv_write_t* req, int status);
  static void OnClosed(uv_handle_t* handle);

  void Handshake();
  Status WritePlain(const std::vector<uint8_t>& plain, std::string* detail);
  // Hands what TLS wrote to the socket; never closes (the caller decides whom a failure tells).
  Status FlushOut();
  void ReadPlain();
  void Deliver(const uint8_t* message, size_t size);
  void GoIdle();

  EngineCore* core_;
  std::shared_ptr<void> teardown_;  // the engine's (see EngineCore), released once libuv is done with us
  SSL* ssl_;
  State state_ = State::kConnecting;
  uv_tcp_t tcp_{};
  uv_connect_t connect_{};
  std::vector<Waiting> waiting_;  // at most the resolver's window: linear scans
  std::vector<Unsent> unsent_;    // not written yet: queued in this loop phase, or waiting for the handshake
  bool queued_ = false;           // the engine will call WriteUnsent at the end of the loop phase
  StreamFrames frames_;
  std::vector<uint8_t> read_buf_;
  uint64_t idle_since_ms_ = 0;
};

}  // namespace nettools::dns
