// How a binding reads the arguments JS passes: positional, in every binding (constructors included).
// Positional because reading a named property of an options object costs an internalized key lookup
// each (visible in a loopback ping request's profile). Each engine refuses a bad argument with its own
// Status (`invalid`: the ICMP engine's invalid-options, the DNS engine's invalid-argument), so the codes
// JS sees are the engine's. TypeScript validates first (src/engines/*); this only converts types.
#pragma once

#include <napi.h>

#include <cstdint>
#include <string>

#include "common/status_error.h"

namespace nettools {

template <typename S>
class Args {
 public:
  Args(const Napi::CallbackInfo& info, S invalid) : info_(info), invalid_(invalid) {}

  size_t size() const { return info_.Length(); }
  Napi::Value operator[](size_t i) const { return info_[i]; }
  bool Absent(size_t i) const { return i >= info_.Length() || info_[i].IsUndefined(); }

  // The engine's invalid-argument error with `detail` as its message.
  Napi::Error Invalid(const std::string& detail) const { return StatusError(info_.Env(), invalid_, detail); }

  // A number that is a non-negative integer no larger than 2^32 - 1.
  uint32_t Uint(size_t i, const char* name) const {
    const Napi::Value v = info_[i];
    if (!v.IsNumber()) throw Invalid(std::string(name) + " must be a number");
    const double d = v.As<Napi::Number>().DoubleValue();
    if (!(d >= 0 && d <= 4294967295.0) || d != static_cast<double>(static_cast<uint32_t>(d))) {
      throw Invalid(std::string(name) + " must be a non-negative integer");
    }
    return static_cast<uint32_t>(d);
  }

  // A number cut to a uint32 as JS's ToUint32 would (a remaining budget in ms may carry a fraction).
  uint32_t Truncated(size_t i, const char* name) const {
    if (!info_[i].IsNumber()) throw Invalid(std::string(name) + " must be a number");
    return info_[i].As<Napi::Number>().Uint32Value();
  }

  // Uint, or `fallback` when the argument is absent or undefined.
  uint32_t UintOr(size_t i, const char* name, uint32_t fallback) const { return Absent(i) ? fallback : Uint(i, name); }

  // The optional trailing function at i (a progress function): true when given, false when absent or
  // undefined; anything else is refused.
  bool OptionalFunction(size_t i, const char* usage) const {
    if (Absent(i)) return false;
    if (!info_[i].IsFunction()) throw Invalid(usage);
    return true;
  }

 private:
  const Napi::CallbackInfo& info_;
  S invalid_;
};

}  // namespace nettools
