// Token bucket arithmetic, nothing else: no clock, no storage. A bucket holds `capacity` tokens and
// refills continuously at capacity/windowMs tokens per millisecond, so an empty bucket is full again
// after `windowMs`.
//
// The level is kept in integer units of 1/windowMs of a token ("token * windowMs"): refilling for
// `elapsed` ms adds `elapsed * capacity` units and a token costs `windowMs` units. With integer
// millisecond clocks every step is exact, which is what makes Retry-After trustworthy: waiting the
// advertised number of seconds adds at least the missing units, never 0.9999 of a token.
//
// `take` spends only what is there. `spend` spends whatever it is asked, for what was already done (a
// packet already sent): the level may fall below zero, a debt, but never below -capacity, so a bucket
// owes one window at most and is full again two windows after its lowest point. While in debt every
// `take` is refused, and its retry time covers the debt and the new cost.

export interface BucketParams {
  capacity: number; // tokens, a positive integer
  windowMs: number; // ms for an empty bucket to fill up, a positive integer
}

export interface BucketState {
  level: number; // units of token * windowMs, -capacity * windowMs..capacity * windowMs (below 0: a debt)
  updatedMs: number; // clock reading the level was computed at
}

export interface BucketDecision {
  allowed: boolean;
  /** Whole tokens left after this decision; negative while the bucket is in debt (see spend). */
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
  // Two windows fill a bucket from its deepest debt; capping elapsed there keeps elapsed * capacity
  // within safe integers after long idles.
  const elapsed = Math.min(Math.max(0, at - state.updatedMs), 2 * params.windowMs);
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
  return decision(params, allowed ? current.level - need : current.level, current.updatedMs, allowed, need);
}

/**
 * Spends `cost` tokens whether they are there or not (always allowed): for what was done already. The
 * level goes no lower than -capacity tokens, so one bucket never owes more than one window.
 */
export function spend(params: BucketParams, state: BucketState | undefined, now: number, cost: number): BucketDecision {
  const current = state === undefined ? fullBucket(params, now) : refill(params, state, now);
  const level = Math.max(current.level - cost * params.windowMs, -params.capacity * params.windowMs);
  return decision(params, level, current.updatedMs, true, 0);
}

// On every request's path: the answer object gains its state rather than being copied into a new one.
function decision(params: BucketParams, level: number, updatedMs: number, allowed: boolean, need: number): BucketDecision {
  const answer = answerAt(params, level, allowed, need) as BucketDecision;
  answer.state = { level, updatedMs };
  return answer;
}

/**
 * The answer for a bucket left at `level` (in token*windowMs units); `need` is the units the request
 * asked for. Also how a store that keeps only the level elsewhere (Redis) answers.
 */
export function answerAt(params: BucketParams, level: number, allowed: boolean, need: number): Omit<BucketDecision, 'state'> {
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
  };
}
