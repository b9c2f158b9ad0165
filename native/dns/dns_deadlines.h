// The deadlines of every query in flight, earliest first, so one engine timer can serve them all.
// Entries are never removed early: a query that settles leaves its entry behind, and the engine skips
// entries whose query is gone or has moved to a later deadline when they come due.
#pragma once

#include <cstdint>
#include <functional>
#include <vector>

namespace nettools::dns {

struct Deadline {
  uint64_t when_ms = 0;
  uint32_t query = 0;
};

class DeadlineQueue {
 public:
  void Push(uint64_t when_ms, uint32_t query);
  bool empty() const { return heap_.empty(); }
  size_t size() const { return heap_.size(); }
  const Deadline& top() const { return heap_.front(); }
  void Pop();
  void Clear() { heap_.clear(); }
  // Drops the entries `keep` rejects; bounds the leftovers of settled queries under load.
  void Prune(const std::function<bool(const Deadline&)>& keep);

 private:
  std::vector<Deadline> heap_;
};

}  // namespace nettools::dns
