// Per-socket 16-bit sequence numbers: thousands of pings share one socket, so the sequence alone says
// which session and which echo a reply belongs to. A sequence is never handed out while still in use.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace nettools::icmp {

// The engine's session itself, not its id: a reply finds its session without a look-up in the engine's
// map, a cold one at every reply with thousands of pings. Safe because a session releases every sequence
// it holds before it goes (Engine::Drop).
struct SeqOwner {
  const void* session = nullptr;  // null: free
  uint32_t index = 0;             // echo index within the session
};

class SeqTable {
 public:
  static constexpr size_t kSize = 65536;

  SeqTable() : owners_(kSize) {}

  // Reserves n free sequences for session (not null), its echo first + i getting out[i]. All or nothing.
  bool Allocate(const void* session, uint32_t first, size_t n, uint16_t* out);
  void Release(uint16_t seq);
  // The owner of seq, or nullptr when it is free.
  const SeqOwner* Lookup(uint16_t seq) const;
  size_t in_use() const { return in_use_; }

 private:
  std::vector<SeqOwner> owners_;
  size_t in_use_ = 0;
  // Allocation walks forward so a just-released sequence is reused as late as possible:
  // a reply that straggles in after its timeout then finds nobody (or a different cookie).
  uint16_t cursor_ = 0;
};

}  // namespace nettools::icmp
