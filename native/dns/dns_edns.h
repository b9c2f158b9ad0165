// The EDNS OPT record (RFC 6891) of an answer: its flags and the options we report, Extended DNS Errors
// (RFC 8914) and Client Subnet (RFC 7871); and the ECS option a query carries.
#pragma once

#include <cstdint>
#include <string>

#include "common/reader.h"
#include "dns/dns_message.h"
#include "dns/dns_status.h"

namespace nettools::dns {

namespace edns {
constexpr uint16_t kDo = 0x8000;           // in the OPT TTL's low 16 bits (RFC 3225)
constexpr uint16_t kOptionSubnet = 8;      // RFC 7871
constexpr uint16_t kOptionExtendedError = 15;  // RFC 8914
}  // namespace edns

// An answer carrying more is abusive: the rest are walked for shape and dropped.
constexpr size_t kMaxEdeOptions = 8;
// EXTRA-TEXT kept per EDE option; longer text is cut (a cut inside a UTF-8 sequence becomes U+FFFD in JS).
constexpr size_t kMaxEdeText = 512;

// Reads an OPT record's RDATA (`rd` limited to RDLENGTH) and its TTL into `out`. Options must fill
// RDLENGTH exactly; an EDE shorter than its INFO-CODE, or an ECS shorter than its fixed part or with
// more address bytes than its family holds, is kBadRdata.
Status ReadOpt(Reader& rd, uint32_t ttl, Edns* out);

// The ECS option's payload for `address` (4 or 16 bytes) cut to `prefix` bits, the bits past the prefix
// zeroed (RFC 7871 section 6); empty when prefix exceeds the address's bits.
std::string SubnetOption(const uint8_t* address, size_t size, uint8_t prefix);

}  // namespace nettools::dns
