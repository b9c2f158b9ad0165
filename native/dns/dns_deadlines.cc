#include "dns/dns_deadlines.h"

#include <algorithm>

namespace nettools::dns {

namespace {

// std heap functions build a max-heap; "later" as the ordering puts the earliest deadline on top.
bool Later(const Deadline& a, const Deadline& b) { return a.when_ms > b.when_ms; }

}  // namespace

void DeadlineQueue::Push(uint64_t when_ms, uint32_t query) {
  heap_.push_back(Deadline{when_ms, query});
  std::push_heap(heap_.begin(), heap_.end(), Later);
}

void DeadlineQueue::Pop() {
  std::pop_heap(heap_.begin(), heap_.end(), Later);
  heap_.pop_back();
}

void DeadlineQueue::Prune(const std::function<bool(const Deadline&)>& keep) {
  heap_.erase(std::remove_if(heap_.begin(), heap_.end(), [&](const Deadline& d) { return !keep(d); }), heap_.end());
  std::make_heap(heap_.begin(), heap_.end(), Later);
}

}  // namespace nettools::dns
