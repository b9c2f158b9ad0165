// Picks the records that answer a question out of an answer section, following CNAME chains.
#pragma once

#include <cstdint>
#include <vector>

#include "dns/dns_message.h"

namespace nettools::dns {

// Longer chains are almost always loops or abuse; resolvers cap them similarly.
constexpr int kMaxCnameLinks = 8;

struct Answer {
  std::vector<const Record*> chain;    // CNAME links from the question name onwards, in order
  std::vector<const Record*> records;  // records of the requested type at the end of the chain
};

// Pointers refer into `m`, which must outlive the result.
Answer ExtractAnswer(const Message& m, const Name& qname, uint16_t qtype);

}  // namespace nettools::dns
