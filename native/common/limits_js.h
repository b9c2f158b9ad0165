// An engine's limits as the frozen JS object `<Engine>.limits`: { name: [min, max], ... }, so TypeScript
// validates with the numbers of the engine's <folder>_limits.h and never repeats them.
#pragma once

#include <napi.h>

#include <cstddef>

#include "common/range.h"

namespace nettools {

struct NamedRange {
  const char* name;
  Range range;
};

template <size_t N>
Napi::Object LimitsObject(Napi::Env env, const NamedRange (&entries)[N]) {
  Napi::Object o = Napi::Object::New(env);
  for (const NamedRange& e : entries) {
    Napi::Array pair = Napi::Array::New(env, 2);
    pair.Set(0u, e.range.min);
    pair.Set(1u, e.range.max);
    pair.Freeze();
    o.Set(e.name, pair);
  }
  o.Freeze();
  return o;
}

}  // namespace nettools
