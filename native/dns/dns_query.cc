#include "dns/dns_query.h"

#include "dns/dns_edns.h"

namespace nettools::dns {

namespace {

void Put16(std::vector<uint8_t>* out, uint16_t v) {
  out->push_back(static_cast<uint8_t>(v >> 8));
  out->push_back(static_cast<uint8_t>(v & 0xFF));
}

}  // namespace

std::vector<uint8_t> BuildQuery(uint16_t id, const Name& qname, uint16_t qtype, const QueryEdns& edns) {
  std::vector<uint8_t> out;
  out.reserve(12 + kMaxNameWire + 4 + 11 + 4 + edns.subnet.size());
  Put16(&out, id);
  Put16(&out, flag::kRd);
  Put16(&out, 1);  // QDCOUNT
  Put16(&out, 0);  // ANCOUNT
  Put16(&out, 0);  // NSCOUNT
  Put16(&out, 1);  // ARCOUNT: the OPT record
  WriteName(qname, &out);
  Put16(&out, qtype);
  Put16(&out, kClassIn);
  // OPT: root owner, CLASS carries the payload size, TTL carries extended RCODE, version (zero) and flags.
  out.push_back(0);
  Put16(&out, type::kOpt);
  Put16(&out, kEdnsUdpPayload);
  Put16(&out, 0);
  Put16(&out, edns.dnssec ? edns::kDo : 0);
  if (edns.subnet.empty()) {
    Put16(&out, 0);  // RDLENGTH
    return out;
  }
  Put16(&out, static_cast<uint16_t>(4 + edns.subnet.size()));
  Put16(&out, edns::kOptionSubnet);
  Put16(&out, static_cast<uint16_t>(edns.subnet.size()));
  out.insert(out.end(), edns.subnet.begin(), edns.subnet.end());
  return out;
}

bool AnswersQuery(const Message& m, uint16_t id, const Name& qname, uint16_t qtype) {
  const Header& h = m.header;
  if (!h.has(flag::kQr) || h.opcode() != 0 || h.id != id) return false;
  if (m.questions.size() != 1) return false;
  const Question& q = m.questions.front();
  return q.type == qtype && q.klass == kClassIn && NamesEqual(q.name, qname);
}

}  // namespace nettools::dns
