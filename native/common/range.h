// A limit of one engine option, both ends inclusive: defined in the engine's <folder>_limits.h, exported
// to JS as `<Engine>.limits` (common/limits_js.h), validated with in TypeScript, guarded by the engine.
#pragma once

#include <cstdint>

namespace nettools {

struct Range {
  uint32_t min;
  uint32_t max;
  bool contains(uint32_t v) const { return v >= min && v <= max; }
};

}  // namespace nettools
