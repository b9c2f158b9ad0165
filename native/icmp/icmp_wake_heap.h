// Every session's next wake-up in one binary min-heap over a contiguous array, so that the engine needs
// a single libuv timer, armed for the earliest. A session holds a slot for its whole life; where the
// slot sits in the heap is kept in an array of the heap's own, so moving an entry touches no session.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace nettools::icmp {

class WakeHeap {
 public:
  // A slot for one owner, out of the heap until Set; held until Free.
  uint32_t Take();
  // Takes the slot out of the heap (if it was in) and hands it to a later Take.
  void Free(uint32_t slot);
  // Puts the slot in the heap at due_ns, or moves it there.
  void Set(uint32_t slot, uint64_t due_ns);
  // Takes the slot out of the heap; nothing when it was not in.
  void Clear(uint32_t slot);

  bool empty() const { return heap_.empty(); }
  size_t size() const { return heap_.size(); }
  bool contains(uint32_t slot) const { return position_[slot] != kOut; }
  // The earliest entry; only when not empty.
  uint64_t top_due() const { return heap_.front().due_ns; }
  uint32_t top_slot() const { return heap_.front().slot; }

 private:
  static constexpr uint32_t kOut = UINT32_MAX;
  struct Entry {
    uint64_t due_ns;
    uint32_t slot;
  };

  void Put(size_t at, const Entry& e);
  void SiftUp(size_t at);
  void SiftDown(size_t at);

  std::vector<Entry> heap_;
  std::vector<uint32_t> position_;  // per slot: its index in heap_, kOut when out of the heap
  std::vector<uint32_t> free_;
};

}  // namespace nettools::icmp
