#include "icmp/icmp_seq_table.h"

namespace nettools::icmp {

bool SeqTable::Allocate(const void* session, uint32_t first, size_t n, uint16_t* out) {
  if (session == nullptr || n > kSize - in_use_) return false;
  size_t got = 0;
  for (size_t tried = 0; got < n && tried < kSize; ++tried) {
    const uint16_t seq = cursor_++;
    if (owners_[seq].session != nullptr) continue;
    owners_[seq] = SeqOwner{session, first + static_cast<uint32_t>(got)};
    out[got++] = seq;
  }
  in_use_ += got;
  return got == n;  // cannot fall short: n <= free slots and the walk covers every slot
}

void SeqTable::Release(uint16_t seq) {
  if (owners_[seq].session == nullptr) return;
  owners_[seq] = SeqOwner{};
  --in_use_;
}

const SeqOwner* SeqTable::Lookup(uint16_t seq) const {
  return owners_[seq].session == nullptr ? nullptr : &owners_[seq];
}

}  // namespace nettools::icmp
