#include "http/http_status.h"

#include "common/status_table.h"

namespace nettools::http {

namespace {

constexpr StatusEntry kEntries[] = {
    {"ok", "no error"},
    {"invalid-argument", "exchange arguments are missing or out of range"},
    {"engine-closed", "the HTTP engine is closed"},
    {"no-event-loop", "no event loop to run the HTTP engine on"},
    {"no-trust-anchors", "no certificate could be read from the trust anchors given"},
};

const StatusTable<Status, sizeof(kEntries) / sizeof(kEntries[0])> kTable(kEntries);

}  // namespace

const char* StatusCode(Status s) { return kTable.Code(s); }

const char* StatusMessage(Status s) { return kTable.Message(s); }

}  // namespace nettools::http
