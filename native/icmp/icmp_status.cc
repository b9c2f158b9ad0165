#include "icmp/icmp_status.h"

namespace nettools::icmp {

namespace {

struct Entry {
  const char* code;
  const char* message;
};

constexpr Entry kTable[] = {
    {"ok", "no error"},
    {"no-socket", "no ICMP socket (datagram or raw) opens for this address family"},
    {"invalid-address", "address is not an IP literal of the requested family"},
    {"invalid-options", "ping options are missing or out of range"},
    {"seq-exhausted", "every sequence number of the socket is in flight"},
    {"engine-closed", "the ICMP engine is closed"},
    {"no-event-loop", "no event loop to run the ICMP engine on"},
    {"random-unavailable", "the kernel random source is not ready"},
};

static_assert(sizeof(kTable) / sizeof(kTable[0]) == static_cast<int>(Status::kCount),
              "every Status needs exactly one table entry");

const Entry* Lookup(Status s) {
  const int i = static_cast<int>(s);
  return (i >= 0 && i < static_cast<int>(Status::kCount)) ? &kTable[i] : nullptr;
}

}  // namespace

const char* StatusCode(Status s) {
  const Entry* e = Lookup(s);
  return e != nullptr ? e->code : "unknown";
}

const char* StatusMessage(Status s) {
  const Entry* e = Lookup(s);
  return e != nullptr ? e->message : "unknown error";
}

}  // namespace nettools::icmp
