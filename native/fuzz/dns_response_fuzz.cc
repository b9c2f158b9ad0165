// Feeds arbitrary bytes to the response parser (every RDATA reader of dns_rdata.cc among it), the answer
// extraction that runs on its output, the text forms the engine makes of what the readers kept, the OPT
// record's reader (EDE and ECS options) and the ECS option a query is built with.
// fuzz-sources: dns/dns_name.cc dns/dns_message.cc dns/dns_edns.cc dns/dns_rdata.cc dns/dns_rdata_text.cc dns/dns_query.cc dns/dns_answer.cc dns/dns_status.cc
#include <cstddef>
#include <cstdint>

#include "dns/dns_answer.h"
#include "dns/dns_edns.h"
#include "dns/dns_message.h"
#include "dns/dns_query.h"
#include "dns/dns_rdata_text.h"

using namespace nettools::dns;
using nettools::HexText;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  // The first bytes as an address and a prefix: the ECS payload must stay within what it was handed.
  if (size >= 17) {
    std::string subnet = SubnetOption(data + 1, (data[0] & 1) ? 16 : 4, data[0] >> 1);
    if (subnet.size() > 20) __builtin_trap();
  }
  Message m;
  if (ParseMessage(data, size, &m) != Status::kOk) return 0;
  if (m.edns.errors.size() > kMaxEdeOptions) __builtin_trap();
  for (const ExtendedError& e : m.edns.errors) {
    if (e.text.size() > kMaxEdeText) __builtin_trap();
  }
  for (const Question& q : m.questions) {
    (void)NameToText(q.name);
    (void)AnswersQuery(m, m.header.id, q.name, q.type);
    Answer a = ExtractAnswer(m, q.name, q.type);
    for (const Record* r : a.records) (void)NameToText(r->target);
  }
  for (const Record& r : m.answers) {
    (void)NameToText(r.name);
    for (const Name& n : r.names) (void)RdataNameText(n);
    (void)HexText(r.data);
    (void)Base64Text(r.data);
    for (const SvcParam& p : r.params) {
      (void)HexText(p.value);
      (void)AlpnIds(p.value);
    }
  }
  return 0;
}
