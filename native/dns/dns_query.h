// Building a recursive query and deciding whether a response really answers it.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "dns/dns_message.h"

namespace nettools::dns {

// Largest UDP answer we advertise (EDNS0): the DNS Flag Day 2020 value that avoids IP fragmentation.
constexpr uint16_t kEdnsUdpPayload = 1232;

// What a query's OPT record asks beyond the payload size.
struct QueryEdns {
  bool dnssec = false;  // the DO bit (RFC 3225)
  std::string subnet;   // an ECS option's payload (SubnetOption in dns_edns.h), or empty for none
};

// Query with RD set and an EDNS0 OPT record.
std::vector<uint8_t> BuildQuery(uint16_t id, const Name& qname, uint16_t qtype, const QueryEdns& edns = QueryEdns());

// A response counts only when it is a response to our ID, with exactly our question (name case-insensitive).
bool AnswersQuery(const Message& m, uint16_t id, const Name& qname, uint16_t qtype);

}  // namespace nettools::dns
