// Building a recursive query and deciding whether a response really answers it.
#pragma once

#include <cstdint>
#include <vector>

#include "dns/dns_message.h"

namespace nettools::dns {

// Largest UDP answer we advertise (EDNS0): the DNS Flag Day 2020 value that avoids IP fragmentation.
constexpr uint16_t kEdnsUdpPayload = 1232;

// Query with RD set and an EDNS0 OPT record.
std::vector<uint8_t> BuildQuery(uint16_t id, const Name& qname, uint16_t qtype);

// A response counts only when it is a response to our ID, with exactly our question (name case-insensitive).
bool AnswersQuery(const Message& m, uint16_t id, const Name& qname, uint16_t qtype);

}  // namespace nettools::dns
