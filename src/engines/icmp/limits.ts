import { nativeEngineClass, type PingLimits } from './native';

// The engine's own limits, read from the addon once: the numbers exist only on the C++ side
// (native/icmp/icmp_limits.h), which refuses anything outside them with `invalid-options`. Options are
// checked once, at the edge (the request schema); the engine's check is its guard, and no layer in
// between repeats either.
let limits: PingLimits | undefined;

export function pingLimits(): PingLimits {
  limits ??= nativeEngineClass().limits;
  return limits;
}
