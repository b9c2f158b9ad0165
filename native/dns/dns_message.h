// DNS response parsing: header, question, and the answer section's records of the types we report
// (RDATA readers in dns_rdata.*).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "common/ip_bytes.h"
#include "dns/dns_name.h"
#include "dns/dns_status.h"

namespace nettools::dns {

namespace type {
constexpr uint16_t kA = 1;
constexpr uint16_t kNs = 2;
constexpr uint16_t kCname = 5;
constexpr uint16_t kSoa = 6;
constexpr uint16_t kPtr = 12;
constexpr uint16_t kMx = 15;
constexpr uint16_t kTxt = 16;
constexpr uint16_t kAaaa = 28;
constexpr uint16_t kSrv = 33;
constexpr uint16_t kNaptr = 35;
constexpr uint16_t kOpt = 41;
constexpr uint16_t kDs = 43;
constexpr uint16_t kRrsig = 46;
constexpr uint16_t kDnskey = 48;
constexpr uint16_t kTlsa = 52;
constexpr uint16_t kSvcb = 64;
constexpr uint16_t kHttps = 65;
constexpr uint16_t kCaa = 257;
}  // namespace type

constexpr uint16_t kClassIn = 1;

namespace flag {
constexpr uint16_t kQr = 0x8000;
constexpr uint16_t kAa = 0x0400;
constexpr uint16_t kTc = 0x0200;
constexpr uint16_t kRd = 0x0100;
constexpr uint16_t kRa = 0x0080;
constexpr uint16_t kAd = 0x0020;
constexpr uint16_t kCd = 0x0010;
}  // namespace flag

struct Header {
  uint16_t id = 0;
  uint16_t flags = 0;
  uint16_t qdcount = 0;
  uint16_t ancount = 0;
  uint16_t nscount = 0;
  uint16_t arcount = 0;

  bool has(uint16_t f) const { return (flags & f) != 0; }
  uint8_t opcode() const { return static_cast<uint8_t>((flags >> 11) & 0x0F); }
  uint8_t rcode() const { return static_cast<uint8_t>(flags & 0x0F); }
};

struct Question {
  Name name;
  uint16_t type = 0;
  uint16_t klass = 0;
};

// One SvcParam of an SVCB or HTTPS record (RFC 9460), its value checked for its key's shape.
struct SvcParam {
  uint16_t key = 0;
  std::string value;  // the wire bytes of the value
};

// One shape for the record types we read; fields not used by a type stay empty.
struct Record {
  Name name;
  uint16_t type = 0;
  uint16_t klass = 0;
  uint32_t ttl = 0;
  IpBytes address;                 // A, AAAA: the RDATA as it came (text is made in TypeScript)
  uint16_t preference = 0;         // MX
  Name target;                     // MX exchange, CNAME target, PTR and NS name
  std::vector<std::string> parts;  // TXT character-strings; CAA tag; NAPTR flags, services, regexp
  // The fixed-size fields, in RDATA order: SOA serial..minimum; CAA flags; SRV priority, weight, port;
  // NAPTR order, preference; DS key tag, algorithm, digest type; DNSKEY flags, protocol, algorithm;
  // TLSA usage, selector, matching type; SVCB/HTTPS priority.
  std::vector<uint32_t> numbers;
  std::vector<Name> names;       // SOA mname, rname; SRV, SVCB, HTTPS target; NAPTR replacement
  std::string data;              // CAA value; DS digest; DNSKEY public key; TLSA association data
  std::vector<SvcParam> params;  // SVCB, HTTPS, in wire order
};

// One RFC 8914 Extended DNS Error option: its INFO-CODE and EXTRA-TEXT (at most kMaxEdeText bytes kept).
struct ExtendedError {
  uint16_t code = 0;
  std::string text;
};

// What the answer's OPT record (RFC 6891) said, when it had one: the first OPT of the additional section.
struct Edns {
  bool present = false;
  uint16_t flags = 0;                // the low 16 bits of the OPT TTL: DO is 0x8000
  std::vector<ExtendedError> errors;  // EDE options (code 15), at most kMaxEdeOptions, in wire order
  bool has_subnet = false;           // an ECS option (code 8, RFC 7871) came back
  uint16_t subnet_family = 0;
  uint8_t subnet_source = 0;
  uint8_t subnet_scope = 0;
};

struct Message {
  Header header;
  std::vector<Question> questions;
  std::vector<Record> answers;  // records of other types are skipped, not kept (RRSIGs are kept)
  Edns edns;
};

// Parses a whole response; authority and additional records are checked for shape, not kept.
// When TC is set, stops after the question: the rest may be cut short.
Status ParseMessage(const uint8_t* data, size_t size, Message* out);

}  // namespace nettools::dns
