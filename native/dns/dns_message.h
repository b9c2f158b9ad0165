// DNS response parsing: header, question, and the answer section's A, AAAA, MX, TXT, PTR and CNAME records.
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
constexpr uint16_t kCname = 5;
constexpr uint16_t kPtr = 12;
constexpr uint16_t kMx = 15;
constexpr uint16_t kTxt = 16;
constexpr uint16_t kAaaa = 28;
constexpr uint16_t kOpt = 41;
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

// One shape for the record types we read; fields not used by a type stay empty.
struct Record {
  Name name;
  uint16_t type = 0;
  uint16_t klass = 0;
  uint32_t ttl = 0;
  IpBytes address;                 // A, AAAA: the RDATA as it came (text is made in TypeScript)
  uint16_t preference = 0;         // MX
  Name target;                     // MX exchange, CNAME target, PTR name
  std::vector<std::string> parts;  // TXT character-strings, in order
};

struct Message {
  Header header;
  std::vector<Question> questions;
  std::vector<Record> answers;  // records of other types are skipped, not kept
};

// Parses a whole response; authority and additional records are checked for shape, not kept.
// When TC is set, stops after the question: the rest may be cut short.
Status ParseMessage(const uint8_t* data, size_t size, Message* out);

}  // namespace nettools::dns
