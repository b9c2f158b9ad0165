#include "dns/dns_outcome_js.h"

#include <string>

namespace nettools::dns {

PackedValues OutcomeWriter::Packed(const QueryOutcome* outcomes, size_t count) {
  packed_.Start();
  for (size_t i = 0; i < count; ++i) Write(outcomes[i]);
  return packed_.Finish();
}

void OutcomeWriter::Write(const QueryOutcome& q) {
  PackedWriter& p = packed_;
  if (q.status != Status::kOk) {
    p.Number(0);
    p.Number(q.sends);
    if (IsWireError(q.status)) {
      p.Text("malformed");
      p.Text(StatusCode(q.status));
    } else {
      p.Text(StatusCode(q.status));
      p.NoText();
    }
    return;
  }
  p.Number(1);
  p.Number(q.sends);
  p.Number(q.rcode);
  p.Number(q.flags);
  p.Number(q.rtt_ms);
  p.Number(q.tcp ? 1 : 0);
  p.Number(static_cast<double>(q.records.size()));
  for (const dns::Record& r : q.records) {
    if (r.type == type::kMx) {
      p.Number(r.preference);
      p.Text(NameToText(r.target));
    } else if (r.type == type::kPtr) {
      p.Text(NameToText(r.target));
    } else if (r.type == type::kTxt) {
      p.Number(static_cast<double>(r.parts.size()));
      for (const std::string& part : r.parts) p.Text(part);
    } else {
      p.Address(r.address);
    }
    p.Number(r.ttl);
  }
  p.Number(static_cast<double>(q.chain.size()));
  for (const CnameLink& link : q.chain) {
    p.Text(link.name);
    p.Text(link.target);
    p.Number(link.ttl);
  }
}

}  // namespace nettools::dns
