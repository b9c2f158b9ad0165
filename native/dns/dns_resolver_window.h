// At most kMaxInFlight queries on the wire to one resolver at once; later ones wait their turn, in the
// order they came. Without it a burst of requests puts thousands of datagrams in one resolver's socket
// buffer at once: the kernel drops what does not fit, and every query lost there costs a resend, and
// often a timeout. The wait counts against the query's own budget.
#pragma once

#include <sys/socket.h>

#include <cstdint>
#include <deque>
#include <unordered_map>
#include <vector>

namespace nettools::dns {

// Resolvers keyed by address and port (FNV-1a): they are few and configured by the operator, so a
// collision is as unlikely as it is harmless (two resolvers would share one estimate or one window).
uint64_t ServerKey(const sockaddr_storage& server);

class ResolverWindow {
 public:
  // What a default-sized (208 KiB) socket buffer of a resolver on this host takes of small queries with
  // room to spare (512 already overflowed a loopback Knot under load), and far more than a public resolver
  // needs in flight at the per-resolver query budget (500 a second at 30 ms is 15).
  static constexpr uint32_t kMaxInFlight = 256;

  // `limit`: this engine's share of kMaxInFlight (1 to kMaxInFlight) when several engines, one per worker
  // thread, send to the same resolvers: the resolver's socket buffer holds what all of them put on the wire.
  explicit ResolverWindow(uint32_t limit = kMaxInFlight) : limit_(limit < 1 ? 1 : limit > kMaxInFlight ? kMaxInFlight : limit) {}

  // True: `query` may be sent now and holds a slot. False: it waits in line.
  bool Enter(uint64_t server, uint32_t query);
  // A query that held a slot is done with it.
  void Leave(uint64_t server);
  // Hands the free slots to waiting queries, in order: each returned pair (server, query) now holds a
  // slot. A query that is gone by then must give it back (Leave).
  std::vector<std::pair<uint64_t, uint32_t>> Admit();
  bool has_admissible() const { return admissible_; }
  void Clear();

 private:
  struct Lane {
    uint32_t in_flight = 0;
    std::deque<uint32_t> waiting;  // may hold queries that settled while waiting: skipped when admitted
  };
  uint32_t limit_;
  std::unordered_map<uint64_t, Lane> lanes_;
  bool admissible_ = false;  // some lane may have a free slot and someone waiting: Admit() looks
};

}  // namespace nettools::dns
