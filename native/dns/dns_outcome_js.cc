#include "dns/dns_outcome_js.h"

#include <cstring>
#include <string>
#include <vector>

namespace nettools::dns {

namespace {

constexpr const char* kKeyNames[] = {"malformed"};

// Collects numbers and texts in order, then makes the JS values at their final size: numbers are copied
// into a Float64Array's memory at once, only texts cost an N-API call each.
class Packer {
 public:
  explicit Packer(Napi::Env env) : env_(env) {
    numbers_.reserve(64);
    texts_.reserve(32);
  }
  void Number(double v) { numbers_.push_back(v); }
  void Text(Napi::Value v) { texts_.push_back(v); }
  void Text(const std::string& v) { Text(Napi::String::New(env_, v)); }

  // `shared` when everything fits in it, else a fresh array; either way its first number is the count.
  Napi::Array Done(Napi::Float64Array shared) const {
    Napi::Float64Array numbers = numbers_.size() < shared.ElementLength() ? shared : Napi::Float64Array::New(env_, numbers_.size() + 1);
    double* data = numbers.Data();
    data[0] = static_cast<double>(numbers_.size());
    if (!numbers_.empty()) std::memcpy(data + 1, numbers_.data(), numbers_.size() * sizeof(double));
    Napi::Array out = Napi::Array::New(env_, texts_.size() + 1);
    out.Set(0u, numbers);
    for (size_t i = 0; i < texts_.size(); ++i) out.Set(static_cast<uint32_t>(i + 1), texts_[i]);
    return out;
  }

 private:
  Napi::Env env_;
  std::vector<double> numbers_;
  std::vector<Napi::Value> texts_;
};

}  // namespace

OutcomeWriter::OutcomeWriter(Napi::Env env) {
  static_assert(sizeof(kKeyNames) / sizeof(kKeyNames[0]) == kKeyCount, "one name per key");
  Napi::Array keys = Napi::Array::New(env, kKeyCount);
  for (uint32_t i = 0; i < kKeyCount; ++i) keys.Set(i, Napi::String::New(env, kKeyNames[i]));
  keys_ = Napi::Persistent(keys);
  numbers_ = Napi::Persistent(Napi::Float64Array::New(env, kSharedNumbers));
}

Napi::Array OutcomeWriter::Packed(Napi::Env env, const std::vector<QueryOutcome>& outcomes) const {
  Packer p(env);
  for (const QueryOutcome& q : outcomes) {
    if (q.status != Status::kOk) {
      p.Number(0);
      p.Number(q.sends);
      bool wire = IsWireError(q.status);
      p.Text(wire ? key(kMalformed) : Napi::String::New(env, StatusCode(q.status)));
      p.Text(wire ? Napi::Value(Napi::String::New(env, StatusCode(q.status))) : env.Undefined());
      continue;
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
      } else if (r.type == type::kTxt) {
        p.Number(static_cast<double>(r.parts.size()));
        for (const std::string& part : r.parts) p.Text(part);
      } else {
        p.Text(r.address);
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
  return p.Done(numbers_.Value());
}

}  // namespace nettools::dns
