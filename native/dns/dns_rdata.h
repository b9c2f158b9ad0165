// RDATA readers, one per record type we report. Each reads through a reader limited to RDLENGTH (which
// still sees the message before it, so names inside RDATA may point back into it) and must consume it
// exactly; anything cut short, overlong or of the wrong shape is kBadRdata.
#pragma once

#include <cstdint>
#include <cstring>

#include "common/reader.h"
#include "dns/dns_message.h"
#include "dns/dns_status.h"

namespace nettools::dns {

// The types whose RDATA ReadRdata reads (CNAME included: chains are followed through it; RRSIG too, the
// signatures reported beside a DNSSEC answer, though it cannot be asked for).
bool RdataWanted(uint16_t type);

// The type code of a mnemonic the API offers ("A", "HTTPS", ...; PTR too); false for any other.
bool TypeFromName(const char* name, uint16_t* out);

// Reads `rec->type`'s RDATA into `rec`; `rd` is limited to the record's RDLENGTH.
Status ReadRdata(Reader& rd, Record* rec);

// SvcParamKeys (RFC 9460 section 14.3.2) whose values ReadRdata checks and the API names.
namespace svc {
constexpr uint16_t kMandatory = 0;
constexpr uint16_t kAlpn = 1;
constexpr uint16_t kNoDefaultAlpn = 2;
constexpr uint16_t kPort = 3;
constexpr uint16_t kIpv4Hint = 4;
constexpr uint16_t kEch = 5;
constexpr uint16_t kIpv6Hint = 6;
}  // namespace svc

}  // namespace nettools::dns
