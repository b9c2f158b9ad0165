// [min, max], both inclusive: one limit of an engine option as the addon exports it
// (native/common/limits_js.h), defined only in the engine's native/<engine>/<engine>_limits.h.
export type Range = readonly [number, number];
