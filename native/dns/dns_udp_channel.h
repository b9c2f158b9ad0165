// One UDP socket shared by the queries of a short burst (to resolvers of one address family).
// The engine rotates to a fresh socket, so a fresh random source port, after kMaxQueries queries or
// kMaxAgeMs, whichever comes first; a rotated socket closes once its last query settles.
#pragma once

#include <sys/socket.h>
#include <uv.h>

#include <array>
#include <cstdint>
#include <memory>
#include <vector>

#include "common/random.h"
#include "dns/dns_demux.h"
#include "dns/dns_status.h"

namespace nettools::dns {

class EngineCore;
class QueryTask;

class UdpChannel {
 public:
  static constexpr uint32_t kMaxQueries = 64;
  static constexpr uint64_t kMaxAgeMs = 250;
  // Bursts of answers arrive faster than one loop turn reads them; the default buffer drops some.
  static constexpr int kReceiveBuffer = 1 << 20;
  static constexpr size_t kMaxDatagram = 4096;

  // Opens and binds a socket to port 0 (a fresh ephemeral port); nullptr with `status` set on failure.
  static UdpChannel* Open(EngineCore* core, uv_loop_t* loop, int family, Status* status);
  UdpChannel(const UdpChannel&) = delete;
  UdpChannel& operator=(const UdpChannel&) = delete;

  // Draws a CSPRNG ID that no query on this socket has used yet: a late answer for a settled query
  // can then never be taken for a newer query's, for as long as the socket lives.
  Status Register(QueryTask* task, RandomPool* ids, uint16_t* txid);
  // The query settled, moved to TCP or was cancelled; its ID stays used. Its datagrams still queued are
  // dropped unsent: returns how many. May close a retired socket.
  size_t Release(uint16_t txid);
  // Queues the datagram; the engine flushes every socket's queue once per loop phase (Flush), so the
  // sends of a burst cost one sendmmsg instead of one syscall (and one receiver wake-up) each.
  Status Queue(const std::vector<uint8_t>& packet, const sockaddr_storage& to, uint32_t query, uint16_t txid);
  void Flush();
  bool has_queued() const { return !queued_.empty(); }
  // Reads the answers already in the socket's buffer, at most kMaxDrain. libuv runs timers before it
  // polls for I/O, so on a busy loop a deadline comes due while its answer sits unread: the engine
  // drains first, and neither resends nor times out a query that was answered in time.
  void Drain();
  static constexpr size_t kMaxDrain = 2 * kMaxQueries;

  bool Exhausted(uint64_t now_ms) const { return used_.size() >= kMaxQueries || now_ms - opened_ms_ >= kMaxAgeMs; }
  uint64_t expires_ms() const { return opened_ms_ + kMaxAgeMs; }
  bool idle() const { return waiting_.empty(); }
  // Opened `ms` earlier than it was (never before the loop's start): tests reach the age limit at once.
  void Age(uint64_t ms) { opened_ms_ = opened_ms_ > ms ? opened_ms_ - ms : 0; }
  int family() const { return family_; }
  // Takes no more queries; closes once idle (at once if it already is).
  void Retire();
  // Closes now; the object frees itself once libuv has released the handle.
  void Close();

 private:
  UdpChannel(EngineCore* core, int family, uint64_t opened_ms);
  ~UdpChannel() = default;

  static void OnAlloc(uv_handle_t* handle, size_t suggested, uv_buf_t* buf);
  static void OnRecv(uv_udp_t* udp, ssize_t nread, const uv_buf_t* buf, const sockaddr* addr, unsigned flags);
  static void OnClosed(uv_handle_t* handle);
  void OnDatagram(const uint8_t* data, size_t size, const sockaddr* from);
  struct Outgoing;
  Status SendNow(const Outgoing& out);

  EngineCore* core_;
  std::shared_ptr<void> teardown_;  // the engine's (see EngineCore), released once libuv is done with us
  int family_;
  uint64_t opened_ms_;
  uv_udp_t udp_{};
  bool retired_ = false;
  bool closing_ = false;
  // At most kMaxQueries entries each: linear scans beat hashing at this size. tasks_[i] owns waiting_[i].
  std::vector<Waiting> waiting_;
  std::vector<QueryTask*> tasks_;
  std::vector<uint16_t> used_;

  // A query is at most 12 + 255 + 4 + 11 bytes (header, name, question tail, OPT).
  struct Outgoing {
    uint32_t query = 0;
    uint16_t txid = 0;
    uint16_t size = 0;
    sockaddr_storage to{};
    std::array<uint8_t, 320> data{};
  };
  std::vector<Outgoing> queued_;
};

}  // namespace nettools::dns
