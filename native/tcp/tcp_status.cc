#include "tcp/tcp_status.h"

#include "common/status_table.h"

namespace nettools::tcp {

namespace {

constexpr StatusEntry kEntries[] = {
    {"ok", "no error"},
    {"invalid-argument", "connect arguments are missing or out of range"},
    {"engine-closed", "the TCP engine is closed"},
    {"no-event-loop", "no event loop to run the TCP engine on"},
};

const StatusTable<Status, sizeof(kEntries) / sizeof(kEntries[0])> kTable(kEntries);

}  // namespace

const char* StatusCode(Status s) { return kTable.Code(s); }

const char* StatusMessage(Status s) { return kTable.Message(s); }

}  // namespace nettools::tcp
