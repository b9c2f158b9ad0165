#include "icmp/icmp_wake_heap.h"

namespace nettools::icmp {

uint32_t WakeHeap::Take() {
  if (!free_.empty()) {
    const uint32_t slot = free_.back();
    free_.pop_back();
    return slot;
  }
  position_.push_back(kOut);
  return static_cast<uint32_t>(position_.size() - 1);
}

void WakeHeap::Free(uint32_t slot) {
  Clear(slot);
  free_.push_back(slot);
}

void WakeHeap::Set(uint32_t slot, uint64_t due_ns) {
  const uint32_t at = position_[slot];
  if (at == kOut) {
    heap_.push_back({due_ns, slot});
    SiftUp(heap_.size() - 1);
    return;
  }
  const uint64_t was = heap_[at].due_ns;
  heap_[at].due_ns = due_ns;
  if (due_ns < was) {
    SiftUp(at);
  } else {
    SiftDown(at);
  }
}

void WakeHeap::Clear(uint32_t slot) {
  const uint32_t at = position_[slot];
  if (at == kOut) return;
  position_[slot] = kOut;
  const Entry last = heap_.back();
  heap_.pop_back();
  if (at == heap_.size()) return;
  // The last entry fills the hole; it may belong above it (another branch) or below it.
  Put(at, last);
  if (at > 0 && last.due_ns < heap_[(at - 1) / 2].due_ns) {
    SiftUp(at);
  } else {
    SiftDown(at);
  }
}

void WakeHeap::Put(size_t at, const Entry& e) {
  heap_[at] = e;
  position_[e.slot] = static_cast<uint32_t>(at);
}

void WakeHeap::SiftUp(size_t at) {
  const Entry e = heap_[at];
  while (at > 0) {
    const size_t parent = (at - 1) / 2;
    if (heap_[parent].due_ns <= e.due_ns) break;
    Put(at, heap_[parent]);
    at = parent;
  }
  Put(at, e);
}

void WakeHeap::SiftDown(size_t at) {
  const Entry e = heap_[at];
  const size_t n = heap_.size();
  for (;;) {
    size_t child = 2 * at + 1;
    if (child >= n) break;
    if (child + 1 < n && heap_[child + 1].due_ns < heap_[child].due_ns) ++child;
    if (e.due_ns <= heap_[child].due_ns) break;
    Put(at, heap_[child]);
    at = child;
  }
  Put(at, e);
}

}  // namespace nettools::icmp
