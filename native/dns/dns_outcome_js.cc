#include "dns/dns_outcome_js.h"

#include <string>

#include "dns/dns_rdata.h"
#include "dns/dns_rdata_text.h"

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
      if (q.detail.empty()) p.NoText();
      else p.Text(q.detail);
    }
    return;
  }
  p.Number(1);
  p.Number(q.sends);
  p.Number(q.rcode);
  p.Number(q.flags);
  p.Number(q.rtt_ms);
  p.Number(static_cast<double>(q.transport));
  p.Number(static_cast<double>(q.records.size()));
  for (const dns::Record& r : q.records) WriteRecord(r);
  p.Number(static_cast<double>(q.chain.size()));
  for (const CnameLink& link : q.chain) {
    p.Text(link.name);
    p.Text(link.target);
    p.Number(link.ttl);
  }
  WriteEdns(q.edns);
  p.Number(static_cast<double>(q.rrsigs.size()));
  for (const dns::Record& r : q.rrsigs) WriteRecord(r);
}

// Present flag; then, when present, the EDE options (code, text or none) and the ECS option (present
// flag, source and scope prefixes).
void OutcomeWriter::WriteEdns(const Edns& e) {
  PackedWriter& p = packed_;
  p.Number(e.present ? 1 : 0);
  if (!e.present) return;
  p.Number(static_cast<double>(e.errors.size()));
  for (const ExtendedError& err : e.errors) {
    p.Number(err.code);
    if (err.text.empty()) p.NoText();
    else p.Text(err.text);
  }
  p.Number(e.has_subnet ? 1 : 0);
  if (!e.has_subnet) return;
  p.Number(e.subnet_source);
  p.Number(e.subnet_scope);
}

void OutcomeWriter::WriteRecord(const Record& r) {
  PackedWriter& p = packed_;
  switch (r.type) {
    case type::kA:
    case type::kAaaa:
      p.Address(r.address);
      break;
    case type::kMx:
      p.Number(r.preference);
      p.Text(NameToText(r.target));
      break;
    case type::kPtr:
      p.Text(NameToText(r.target));
      break;
    case type::kTxt:
      p.Number(static_cast<double>(r.parts.size()));
      for (const std::string& part : r.parts) p.Text(part);
      break;
    case type::kCname:
      p.Text(NameToText(r.name));
      p.Text(NameToText(r.target));
      break;
    case type::kNs:
      p.Text(RdataNameText(r.target));
      break;
    default:
      WriteFields(r);
  }
  p.Number(r.ttl);
}

void OutcomeWriter::WriteFields(const Record& r) {
  PackedWriter& p = packed_;
  p.Number(static_cast<double>(r.numbers.size()));
  for (uint32_t n : r.numbers) p.Number(n);
  p.Number(static_cast<double>(r.names.size()));
  for (const Name& n : r.names) p.Text(RdataNameText(n));
  p.Number(static_cast<double>(r.parts.size()));
  for (const std::string& part : r.parts) p.Text(part);
  if (r.type == type::kCaa) p.Text(r.data);
  else if (r.type == type::kDnskey || r.type == type::kRrsig) p.Text(Base64Text(r.data));
  else if (r.type == type::kDs || r.type == type::kTlsa) p.Text(HexText(r.data));
  else p.NoText();
  p.Number(static_cast<double>(r.params.size()));
  for (const SvcParam& param : r.params) WriteSvcParam(param);
}

// Values were checked for their key's shape by the reader (dns_rdata.cc, SvcValueFits).
void OutcomeWriter::WriteSvcParam(const SvcParam& param) {
  PackedWriter& p = packed_;
  const std::string& v = param.value;
  const auto* bytes = reinterpret_cast<const uint8_t*>(v.data());
  p.Number(param.key);
  switch (param.key) {
    case svc::kMandatory:
      p.Number(static_cast<double>(v.size() / 2));
      for (size_t i = 0; i + 1 < v.size(); i += 2) p.Number((bytes[i] << 8) | bytes[i + 1]);
      break;
    case svc::kAlpn: {
      std::vector<std::string> ids = AlpnIds(v);
      p.Number(static_cast<double>(ids.size()));
      for (const std::string& id : ids) p.Text(id);
      break;
    }
    case svc::kNoDefaultAlpn:
      break;
    case svc::kPort:
      p.Number((bytes[0] << 8) | bytes[1]);
      break;
    case svc::kIpv4Hint:
    case svc::kIpv6Hint: {
      size_t width = param.key == svc::kIpv4Hint ? 4 : 16;
      p.Number(static_cast<double>(v.size() / width));
      for (size_t i = 0; i + width <= v.size(); i += width) p.Address(IpBytes::Of(bytes + i, width));
      break;
    }
    case svc::kEch:
      p.Text(Base64Text(v));
      break;
    default:
      p.Text(HexText(v));
  }
}

}  // namespace nettools::dns
