#include "icmp/icmp_status.h"

#include "common/status_table.h"

namespace nettools::icmp {

namespace {

constexpr StatusEntry kEntries[] = {
    {"ok", "no error"},
    {"no-socket", "no ICMP socket (datagram or raw) opens for this address family"},
    {"invalid-address", "address is not 4 (IPv4) or 16 (IPv6, not IPv4-mapped) bytes of the requested family"},
    {"invalid-options", "ping options are missing or out of range"},
    {"seq-exhausted", "every sequence number of the socket is in flight"},
    {"engine-closed", "the ICMP engine is closed"},
    {"no-event-loop", "no event loop to run the ICMP engine on"},
    {"random-unavailable", "the kernel random source is not ready"},
};

const StatusTable<Status, sizeof(kEntries) / sizeof(kEntries[0])> kTable(kEntries);

}  // namespace

const char* StatusCode(Status s) { return kTable.Code(s); }

const char* StatusMessage(Status s) { return kTable.Message(s); }

}  // namespace nettools::icmp
