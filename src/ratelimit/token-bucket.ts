// Token bucket arithmetic, nothing else: no clock, no storage. A bucket holds `capacity` tokens and
// refills continuously at capacity/windowMs tokens per millisecond, so an empty bucket is full again
// after `windowMs`.
//
// The level is kept in integer units of 1/windowMs of a token ("token * windowMs"): refilling for
// `elapsed` ms adds `elapsed * capacity` units and a token costs `windowMs` units. With integer
// millisecond clocks every step is exact, which is what makes Retry-After trustworthy: waiting the
// advertised number of seconds adds at least the missing units, never 0.9999 of a token.

export interface BucketParams {
  capacity: number; // tokens, a positive integer
  windowMs: number; // ms for an empty bucket to fill up, a positive integer
}

export interface BucketState {
  level: number; // units of token * windowMs, 0..capacity * windowMs
  updatedMs: number; // clock reading the level was computed at
}

export interface BucketDecision {
  allowed: boolean;
  /** Whole tokens left after this decision. */
  remaining: number;
  /** Ms until the bucket is full again (0 when it is full). */
  resetMs: number;
  /** Seconds until the bucket is full again, rounded up. */
  resetSeconds: number;
  /** On refusal: ms until the requested tokens are there; 0 when allowed. */
  retryAfterMs: number;
  /** On refusal: whole seconds, rounded up, after which the same request is allowed; 0 when allowed. */
  retryAfterSeconds: number;
  /** The state to store for the next call. */
  state: BucketState;
}

/** The state of a bucket nobody has drawn from: full. */
export function fullBucket(params: BucketParams, now: number): BucketState {
  return { level: params.capacity * params.windowMs, updatedMs: Math.floor(now) };
}

/** The level at `now`, after continuous refill; a clock that went backwards refills nothing. */
export function refill(params: BucketParams, state: BucketState, now: number): BucketState {
  const at = Math.floor(now);
  const full = params.capacity * params.windowMs;
  // Capping elapsed at one window keeps elapsed * capacity within safe integers after long idles.
  const elapsed = Math.min(Math.max(0, at - state.updatedMs), params.windowMs);
  return { level: Math.min(full, state.level + elapsed * params.capacity), updatedMs: Math.max(at, state.updatedMs) };
}

/**
 * Takes `cost` tokens (default 1) if they are there. A refusal takes nothing. `state` undefined means
 * a bucket never seen (or forgotten): full. A cost above capacity can never be met; callers that allow
 * variable costs check that first, because the retry time computed for it would be a false promise.
 */
export function take(params: BucketParams, state: BucketState | undefined, now: number, cost = 1): BucketDecision {
  const current = state === undefined ? fullBucket(params, now) : refill(params, state, now);
  const need = cost * params.windowMs;
  const allowed = current.level >= need;
  const level = allowed ? current.level - need : current.level;
  const full = params.capacity * params.windowMs;
  const resetMs = Math.ceil((full - level) / params.capacity);
  const retryAfterMs = allowed ? 0 : Math.ceil((need - level) / params.capacity);
  return {
    allowed,
    remaining: Math.floor(level / params.windowMs),
    resetMs,
    resetSeconds: Math.ceil(resetMs / 1000),
    retryAfterMs,
    retryAfterSeconds: Math.ceil(retryAfterMs / 1000),
    state: { level, updatedMs: current.updatedMs },
  };
}
