#include "icmp/icmp_error.h"

namespace nettools {
namespace icmp {

namespace {

struct Entry {
  const char* code;
  const char* message;
};

constexpr Entry kTable[] = {
    {"ICMP_OK", "no error"},
    {"ICMP_NO_SOCKET", "no ICMP socket (datagram or raw) opens for this address family"},
    {"ICMP_BAD_ADDRESS", "address is not an IP literal of the requested family"},
    {"ICMP_BAD_OPTIONS", "ping options are missing or out of range"},
    {"ICMP_SEQ_EXHAUSTED", "every sequence number of the socket is in flight"},
    {"ICMP_ENGINE_CLOSED", "the ICMP engine is closed"},
    {"ICMP_NO_EVENT_LOOP", "no event loop to run the ICMP engine on"},
};

static_assert(sizeof(kTable) / sizeof(kTable[0]) == static_cast<int>(IcmpError::kCount),
              "one table entry per IcmpError");

const Entry& Lookup(IcmpError e) {
  const int i = static_cast<int>(e);
  return (i >= 0 && i < static_cast<int>(IcmpError::kCount)) ? kTable[i] : kTable[0];
}

}  // namespace

const char* IcmpErrorCode(IcmpError e) { return Lookup(e).code; }
const char* IcmpErrorMessage(IcmpError e) { return Lookup(e).message; }

}  // namespace icmp
}  // namespace nettools
