#include "dns/dns_status.h"

#include "common/status_table.h"

namespace nettools::dns {

namespace {

constexpr StatusEntry kEntries[] = {
    {"ok", "no error"},
    {"truncated-message", "the message ends before its contents do"},
    {"bad-label-type", "a name uses an obsolete or unknown label type"},
    {"name-too-long", "a name is longer than 255 bytes on the wire"},
    {"bad-compression-pointer", "a compression pointer does not point back into the message"},
    {"compression-chain-too-long", "a name follows too many compression pointers"},
    {"bad-section-counts", "the section counts do not fit in the message"},
    {"bad-rdata", "a record's data does not match its type and length"},
    {"invalid-name", "the name is not a valid domain name"},
    {"invalid-type", "type must be one of A, AAAA, MX, TXT, PTR"},
    {"invalid-address", "resolver address must be an IP literal with a port"},
    {"random-unavailable", "the kernel random source is not ready"},
    {"timeout", "the resolver did not answer within the budget"},
    {"connection-refused", "the resolver refused the TCP connection"},
    {"connection-closed", "the resolver closed the TCP connection before answering"},
    {"network-error", "the query could not be sent or received"},
    {"tls-handshake-failed", "the TLS handshake with the resolver failed"},
    {"tls-certificate-invalid", "the resolver's certificate is not valid for its configured name"},
    {"tls-unavailable", "TLS could not be set up (the trust anchors could not be loaded)"},
    {"cancelled", "the query was cancelled"},
    {"engine-closed", "the DNS engine is closed"},
    {"no-event-loop", "no event loop to run the DNS engine on"},
    {"invalid-argument", "the call's arguments have the wrong shape"},
};

const StatusTable<Status, sizeof(kEntries) / sizeof(kEntries[0])> kTable(kEntries);

}  // namespace

const char* StatusCode(Status s) { return kTable.Code(s); }

const char* StatusMessage(Status s) { return kTable.Message(s); }

bool IsWireError(Status s) { return s >= Status::kTruncated && s <= Status::kBadRdata; }

}  // namespace nettools::dns
