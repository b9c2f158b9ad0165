// The ranges a ping's options must fall in, defined here only: the binding exports them to JS as
// `IcmpEngine.limits`, src/engines/icmp/validate.ts validates every ping with them, and the engine
// refuses anything outside them as a guard of its own preconditions.
#pragma once

#include <cstdint>

#include "common/range.h"
#include "icmp/icmp_codec.h"

namespace nettools::icmp {

namespace limits {
// A ping or trace session holds one sequence per echo for its whole life (a metered one, those of its
// latest grants): the cap keeps any one of them to a small share of a socket's 65,536.
constexpr Range kCount{1, 10000};
constexpr Range kIntervalMs{1, 60000};
constexpr Range kTimeoutMs{1, 60000};
constexpr Range kSize{0, static_cast<uint32_t>(kMaxPayload)};  // payload bytes; the codec's buffer bound
constexpr Range kTtl{1, 255};
// Traces: probes per TTL, and the gap between two probes (a trace is paced, never a burst).
constexpr Range kProbesPerTtl{1, 10};
constexpr Range kPaceUs{0, 100000};
}  // namespace limits

}  // namespace nettools::icmp
