#include "dns/dns_outcome_js.h"

#include <cstring>
#include <string>
#include <vector>

namespace nettools::dns {

namespace {

// Text markers in the numbers stream (a length >= 0 is a slice of the ASCII string).
constexpr double kOwnText = -1;  // the next text element of the array
constexpr double kNoText = -2;   // absent (an error without a detail)

bool IsAscii(const std::string& s) {
  for (char c : s) {
    if (static_cast<unsigned char>(c) >= 0x80) return false;
  }
  return true;
}

// Collects numbers and texts in order, then makes the JS values at their final size: numbers are copied
// into a Float64Array's memory at once, ASCII texts become one string, only other texts cost an N-API
// call each.
class Packer {
 public:
  explicit Packer(Napi::Env env) : env_(env) {
    numbers_.reserve(64);
    ascii_.reserve(256);
  }
  void Number(double v) { numbers_.push_back(v); }
  void Text(const std::string& v) {
    if (IsAscii(v)) {
      Number(static_cast<double>(v.size()));
      ascii_.append(v);
    } else {
      // As a string of its own: V8 decodes the UTF-8 (bad sequences become U+FFFD), which a slice
      // of a Latin-1 string could not.
      Number(kOwnText);
      texts_.push_back(Napi::String::New(env_, v));
    }
  }
  void NoText() { Number(kNoText); }

  // `shared` when everything fits in it, else a fresh array; either way its first number is the count.
  PackedOutcomes Done(Napi::Float64Array shared) const {
    Napi::Float64Array numbers = numbers_.size() < shared.ElementLength() ? shared : Napi::Float64Array::New(env_, numbers_.size() + 1);
    double* data = numbers.Data();
    data[0] = static_cast<double>(numbers_.size());
    if (!numbers_.empty()) std::memcpy(data + 1, numbers_.data(), numbers_.size() * sizeof(double));
    napi_value ascii = nullptr;
    NAPI_THROW_IF_FAILED(env_, napi_create_string_latin1(env_, ascii_.data(), ascii_.size(), &ascii), PackedOutcomes{});
    PackedOutcomes out;
    out.values = {numbers, ascii};
    if (!texts_.empty()) {
      Napi::Array own = Napi::Array::New(env_, texts_.size());
      for (size_t i = 0; i < texts_.size(); ++i) own.Set(static_cast<uint32_t>(i), texts_[i]);
      out.values.push_back(own);
    }
    return out;
  }

 private:
  Napi::Env env_;
  std::vector<double> numbers_;
  std::string ascii_;
  std::vector<Napi::Value> texts_;
};

}  // namespace

OutcomeWriter::OutcomeWriter(Napi::Env env) { numbers_ = Napi::Persistent(Napi::Float64Array::New(env, kSharedNumbers)); }

Napi::Array PackedOutcomes::AsArray(Napi::Env env) const {
  Napi::Array out = Napi::Array::New(env, values.size());
  for (size_t i = 0; i < values.size(); ++i) out.Set(static_cast<uint32_t>(i), values[i]);
  return out;
}

PackedOutcomes OutcomeWriter::Packed(Napi::Env env, const QueryOutcome* outcomes, size_t count) const {
  Packer p(env);
  for (size_t i = 0; i < count; ++i) {
    const QueryOutcome& q = outcomes[i];
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
      } else if (r.type == type::kPtr) {
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
