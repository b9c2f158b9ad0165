import { fail, ok, type Result } from '../util/result';
import { parseRateLimit, type RateLimitConfig } from './rate-limit-config';

// A plan: the bucket a keyed client spends, and optionally its own in-flight cap.
export interface Plan {
  name: string;
  rate: RateLimitConfig;
  inFlight: number | null; // null: the per-client cap every client has
}

// The policy of clients without a key, as the rate-limit fields name it.
export const DEFAULT_PLAN = 'default';

const NAME = /^[a-z][a-z0-9_-]{0,31}$/;
const MAX_IN_FLIGHT = 10_000;

// NETTOOLS_PLANS: `name=count/window[:inflight]`, comma separated, e.g. `pro=600/60s:16,enterprise=20000/60s:64`.
export function parsePlans(text: string): Result<Map<string, Plan>, 'plans-malformed'> {
  const plans = new Map<string, Plan>();
  if (text.trim() === '') return ok(plans);
  for (const entry of text.split(',').map((e) => e.trim())) {
    const eq = entry.indexOf('=');
    const name = eq < 0 ? '' : entry.slice(0, eq);
    if (!NAME.test(name)) return fail('plans-malformed', `plan "${entry}" is not name=count/window[:inflight] with a name of 1-32 of a-z, 0-9, "-", "_"`);
    if (name === DEFAULT_PLAN) return fail('plans-malformed', `plan name "${DEFAULT_PLAN}" is the anonymous policy (NETTOOLS_RATE_LIMIT)`);
    if (plans.has(name)) return fail('plans-malformed', `plan "${name}" appears twice`);
    const [rateText, inFlightText, ...rest] = entry.slice(eq + 1).split(':');
    const rate = parseRateLimit(rateText ?? '');
    if (!rate.ok) return fail('plans-malformed', `plan "${name}": ${rate.message}`);
    if (rest.length > 0 || (inFlightText !== undefined && !/^\d{1,5}$/.test(inFlightText))) return fail('plans-malformed', `plan "${name}": in-flight cap must be a whole number`);
    const inFlight = inFlightText === undefined ? null : Number(inFlightText);
    if (inFlight !== null && (inFlight < 1 || inFlight > MAX_IN_FLIGHT)) return fail('plans-malformed', `plan "${name}": in-flight cap must be 1..${MAX_IN_FLIGHT}`);
    plans.set(name, { name, rate: rate.value, inFlight });
  }
  return ok(plans);
}
