#include "dns/dns_outcome_js.h"

#include <string>

namespace nettools::dns {

namespace {

constexpr const char* kKeyNames[] = {"udp", "tcp", "malformed", "NOERROR"};

// How many numbers and texts Packed writes for these outcomes: both are made at their final size once.
struct PackedSize {
  size_t numbers = 0;
  size_t texts = 0;
};

PackedSize SizeOf(const std::vector<QueryOutcome>& outcomes) {
  PackedSize size;
  for (const QueryOutcome& q : outcomes) {
    if (q.status != Status::kOk) {
      size.numbers += 2;  // 0, sends
      size.texts += 2;    // error, detail
      continue;
    }
    size.numbers += 5;  // 1, sends, flag bits, rttMs, record count
    size.texts += 2;    // rcode, transport
    for (const dns::Record& r : q.records) {
      if (r.type == type::kMx) {
        size.numbers += 2;  // priority, ttl
        size.texts += 1;    // exchange
      } else if (r.type == type::kTxt) {
        size.numbers += 2;  // part count, ttl
        size.texts += r.parts.size();
      } else {
        size.numbers += 1;  // ttl
        size.texts += 1;    // address
      }
    }
    size.numbers += 1 + q.chain.size();  // link count, a ttl per link
    size.texts += 2 * q.chain.size();    // name, target per link
  }
  return size;
}

// Numbers go straight into a Float64Array's memory; only texts cost an N-API call each. Writes past the
// sizes SizeOf counted are a bug, and are dropped rather than written out of bounds.
class Packer {
 public:
  Packer(Napi::Env env, const PackedSize& size)
      : env_(env),
        numbers_(Napi::Float64Array::New(env, size.numbers)),
        out_(Napi::Array::New(env, size.texts + 1)),
        text_end_(static_cast<uint32_t>(size.texts + 1)) {
    out_.Set(0u, numbers_);
  }
  void Number(double v) {
    if (n_ < numbers_.ElementLength()) numbers_[n_++] = v;
  }
  void Text(Napi::Value v) {
    if (t_ < text_end_) out_.Set(t_++, v);
  }
  void Text(const std::string& v) { Text(Napi::String::New(env_, v)); }
  Napi::Array Done() const { return out_; }

 private:
  Napi::Env env_;
  Napi::Float64Array numbers_;
  Napi::Array out_;
  uint32_t text_end_;
  size_t n_ = 0;
  uint32_t t_ = 1;
};

}  // namespace

OutcomeWriter::OutcomeWriter(Napi::Env env) {
  static_assert(sizeof(kKeyNames) / sizeof(kKeyNames[0]) == kKeyCount, "one name per key");
  Napi::Array keys = Napi::Array::New(env, kKeyCount);
  for (uint32_t i = 0; i < kKeyCount; ++i) keys.Set(i, Napi::String::New(env, kKeyNames[i]));
  keys_ = Napi::Persistent(keys);
}

Napi::Array OutcomeWriter::Packed(Napi::Env env, const std::vector<QueryOutcome>& outcomes) const {
  Packer p(env, SizeOf(outcomes));
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
    p.Text(q.rcode == 0 ? key(kNoError) : Napi::String::New(env, RcodeName(q.rcode)));
    p.Number(q.flags);
    p.Number(q.rtt_ms);
    p.Text(key(q.tcp ? kTcp : kUdp));
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
  return p.Done();
}

}  // namespace nettools::dns
