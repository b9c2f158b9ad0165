// Text names from requests must survive encode/decode unchanged: NameFromText -> WriteName -> ReadName.
// fuzz-sources: dns/dns_name.cc dns/dns_message.cc dns/dns_edns.cc dns/dns_rdata.cc dns/dns_query.cc dns/dns_answer.cc dns/dns_status.cc
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string_view>
#include <vector>

#include "common/reader.h"
#include "dns/dns_name.h"

using namespace nettools::dns;
using nettools::Reader;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string_view text(reinterpret_cast<const char*>(data), size);
  Name name;
  if (NameFromText(text, &name) != Status::kOk) return 0;
  std::vector<uint8_t> wire;
  WriteName(name, &wire);
  if (wire.size() > kMaxNameWire) std::abort();
  Reader r(wire.data(), wire.size());
  Name back;
  if (ReadName(r, &back) != Status::kOk || r.remaining() != 0 || !NamesEqual(name, back)) std::abort();
  return 0;
}
