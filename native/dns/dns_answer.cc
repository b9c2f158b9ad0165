#include "dns/dns_answer.h"

namespace nettools::dns {

Answer ExtractAnswer(const Message& m, const Name& qname, uint16_t qtype) {
  Answer a;
  const Name* owner = &qname;
  for (int links = 0;; ++links) {
    const Record* cname = nullptr;
    for (const Record& r : m.answers) {
      if (!NamesEqual(r.name, *owner)) continue;
      if (r.type == qtype) a.records.push_back(&r);
      if (r.type == type::kCname && cname == nullptr) cname = &r;
    }
    if (!a.records.empty() || cname == nullptr || links == kMaxCnameLinks) break;
    a.chain.push_back(cname);
    owner = &cname->target;
  }
  return a;
}

}  // namespace nettools::dns
