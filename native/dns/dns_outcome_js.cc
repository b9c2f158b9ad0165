#include "dns/dns_outcome_js.h"

#include <string>

namespace nettools::dns {

namespace {

constexpr const char* kKeyNames[] = {"udp", "tcp", "malformed", "NOERROR"};

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

OutcomeWriter::OutcomeWriter(Napi::Env env) {
  static_assert(sizeof(kKeyNames) / sizeof(kKeyNames[0]) == kKeyCount, "one name per key");
  Napi::Array keys = Napi::Array::New(env, kKeyCount);
  for (uint32_t i = 0; i < kKeyCount; ++i) keys.Set(i, Napi::String::New(env, kKeyNames[i]));
  keys_ = Napi::Persistent(keys);
}

Napi::Array OutcomeWriter::Packed(Napi::Env env, const std::vector<QueryOutcome>& outcomes) const {
  Napi::Array out = Napi::Array::New(env);
  Packer p(out);
  for (const QueryOutcome& q : outcomes) {
    if (q.status != Status::kOk) {
      p.Add(env, 0);
      p.Add(env, q.sends);
      bool wire = IsWireError(q.status);
      p.Add(wire ? key(kMalformed) : Napi::String::New(env, StatusCode(q.status)));
      p.Add(wire ? Napi::Value(Napi::String::New(env, StatusCode(q.status))) : env.Undefined());
      continue;
    }
    p.Add(env, 1);
    p.Add(env, q.sends);
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
