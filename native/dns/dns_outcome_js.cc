#include "dns/dns_outcome_js.h"

#include <string>

namespace nettools::dns {

namespace {

constexpr const char* kKeyNames[] = {"error",    "detail",   "rcode", "flags", "rttMs", "transport", "answers",
                                     "cnames",   "address",  "priority", "exchange", "value", "parts", "ttl",
                                     "name",     "target",   "udp",   "tcp",   "malformed", "NOERROR"};

constexpr struct {
  uint16_t bit;
  const char* name;
} kFlagBits[] = {{flag::kQr, "qr"}, {flag::kAa, "aa"}, {flag::kTc, "tc"}, {flag::kRd, "rd"},
              {flag::kRa, "ra"}, {flag::kAd, "ad"}, {flag::kCd, "cd"}};

}  // namespace

OutcomeWriter::OutcomeWriter(Napi::Env env) {
  static_assert(sizeof(kKeyNames) / sizeof(kKeyNames[0]) == kKeyCount, "one name per key");
  static_assert(sizeof(kFlagBits) / sizeof(kFlagBits[0]) == kFlagCount, "one name per flag");
  Napi::Array keys = Napi::Array::New(env, kKeyCount);
  for (uint32_t i = 0; i < kKeyCount; ++i) keys.Set(i, Napi::String::New(env, kKeyNames[i]));
  keys_ = Napi::Persistent(keys);
  Napi::Array flags = Napi::Array::New(env, kFlagCount);
  for (uint32_t i = 0; i < kFlagCount; ++i) flags.Set(i, Napi::String::New(env, kFlagBits[i].name));
  flag_names_ = Napi::Persistent(flags);
}

Napi::Array OutcomeWriter::Flags(Napi::Env env, uint16_t flags) const {
  Napi::Array out = Napi::Array::New(env);
  Napi::Array names = flag_names_.Value();
  uint32_t n = 0;
  for (uint32_t i = 0; i < kFlagCount; ++i) {
    if (flags & kFlagBits[i].bit) out.Set(n++, names.Get(i));
  }
  return out;
}

Napi::Object OutcomeWriter::Record(Napi::Env env, const dns::Record& r) const {
  Napi::Object o = Napi::Object::New(env);
  switch (r.type) {
    case type::kA:
    case type::kAaaa:
      o.Set(key(kAddress), Napi::String::New(env, r.address));
      break;
    case type::kMx:
      o.Set(key(kPriority), Napi::Number::New(env, r.preference));
      o.Set(key(kExchange), Napi::String::New(env, NameToText(r.target)));
      break;
    case type::kTxt: {
      Napi::Array parts = Napi::Array::New(env, r.parts.size());
      std::string value;
      for (uint32_t i = 0; i < r.parts.size(); ++i) {
        parts.Set(i, Napi::String::New(env, r.parts[i]));
        value += r.parts[i];
      }
      o.Set(key(kValue), Napi::String::New(env, value));
      o.Set(key(kParts), parts);
      break;
    }
    default:
      break;
  }
  o.Set(key(kTtl), Napi::Number::New(env, r.ttl));
  return o;
}

Napi::Object OutcomeWriter::Outcome(Napi::Env env, const QueryOutcome& q) const {
  Napi::Object o = Napi::Object::New(env);
  if (q.status != Status::kOk) {
    if (IsWireError(q.status)) {
      o.Set(key(kError), key(kMalformed));
      o.Set(key(kDetail), Napi::String::New(env, StatusCode(q.status)));
    } else {
      o.Set(key(kError), Napi::String::New(env, StatusCode(q.status)));
    }
    return o;
  }
  o.Set(key(kRcode), q.rcode == 0 ? key(kNoError) : Napi::String::New(env, RcodeName(q.rcode)));
  o.Set(key(kFlags), Flags(env, q.flags));
  o.Set(key(kRttMs), Napi::Number::New(env, q.rtt_ms));
  o.Set(key(kTransport), key(q.tcp ? kTcp : kUdp));
  Napi::Array answers = Napi::Array::New(env, q.records.size());
  for (uint32_t i = 0; i < q.records.size(); ++i) answers.Set(i, Record(env, q.records[i]));
  o.Set(key(kAnswers), answers);
  Napi::Array chain = Napi::Array::New(env, q.chain.size());
  for (uint32_t i = 0; i < q.chain.size(); ++i) {
    Napi::Object link = Napi::Object::New(env);
    link.Set(key(kName), Napi::String::New(env, q.chain[i].name));
    link.Set(key(kTarget), Napi::String::New(env, q.chain[i].target));
    link.Set(key(kTtl), Napi::Number::New(env, q.chain[i].ttl));
    chain.Set(i, link);
  }
  o.Set(key(kCnames), chain);
  return o;
}

namespace {

// Appends to a JS array; one place for the running index.
class Packer {
 public:
  explicit Packer(Napi::Array out) : out_(out) {}
  void Add(napi_value v) { out_.Set(n_++, v); }
  void Add(Napi::Env env, double v) { Add(Napi::Number::New(env, v)); }
  void Add(Napi::Env env, const std::string& v) { Add(Napi::String::New(env, v)); }

 private:
  Napi::Array out_;
  uint32_t n_ = 0;
};

}  // namespace

Napi::Array OutcomeWriter::Packed(Napi::Env env, const std::vector<QueryOutcome>& outcomes) const {
  Napi::Array out = Napi::Array::New(env);
  Packer p(out);
  for (const QueryOutcome& q : outcomes) {
    if (q.status != Status::kOk) {
      p.Add(env, 0);
      bool wire = IsWireError(q.status);
      p.Add(wire ? key(kMalformed) : Napi::String::New(env, StatusCode(q.status)));
      p.Add(wire ? Napi::Value(Napi::String::New(env, StatusCode(q.status))) : env.Undefined());
      continue;
    }
    p.Add(env, 1);
    p.Add(q.rcode == 0 ? key(kNoError) : Napi::String::New(env, RcodeName(q.rcode)));
    p.Add(env, q.flags);
    p.Add(env, q.rtt_ms);
    p.Add(key(q.tcp ? kTcp : kUdp));
    p.Add(env, static_cast<double>(q.records.size()));
    for (const dns::Record& r : q.records) {
      if (r.type == type::kMx) {
        p.Add(env, r.preference);
        p.Add(env, NameToText(r.target));
      } else if (r.type == type::kTxt) {
        p.Add(env, static_cast<double>(r.parts.size()));
        for (const std::string& part : r.parts) p.Add(env, part);
      } else {
        p.Add(env, r.address);
      }
      p.Add(env, r.ttl);
    }
    p.Add(env, static_cast<double>(q.chain.size()));
    for (const CnameLink& link : q.chain) {
      p.Add(env, link.name);
      p.Add(env, link.target);
      p.Add(env, link.ttl);
    }
  }
  return out;
}

}  // namespace nettools::dns
