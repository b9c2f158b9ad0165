// Feeds arbitrary bytes to the response parser and the answer extraction that runs on its output.
// fuzz-sources: dns/dns_name.cc dns/dns_message.cc dns/dns_query.cc dns/dns_answer.cc dns/dns_status.cc
#include <cstddef>
#include <cstdint>

#include "dns/dns_answer.h"
#include "dns/dns_message.h"
#include "dns/dns_query.h"

using namespace nettools::dns;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  Message m;
  if (ParseMessage(data, size, &m) != Status::kOk) return 0;
  for (const Question& q : m.questions) {
    (void)NameToText(q.name);
    (void)AnswersQuery(m, m.header.id, q.name, q.type);
    Answer a = ExtractAnswer(m, q.name, q.type);
    for (const Record* r : a.records) (void)NameToText(r->target);
  }
  for (const Record& r : m.answers) (void)NameToText(r.name);
  return 0;
}
