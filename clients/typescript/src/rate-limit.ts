// What the server said about the caller's budget, read from the IETF draft fields (`RateLimit`,
// `RateLimit-Policy`) and the older `X-RateLimit-*` ones. A field the answer did not carry is absent.
export interface RateLimitInfo {
  policy?: string; // the plan's name: `default` without a key
  limit?: number; // bucket size: requests in a burst
  windowSeconds?: number; // seconds for an empty bucket to fill again
  remaining?: number; // requests left now
  resetSeconds?: number; // seconds until the bucket is full again
  retryAfterSeconds?: number; // on a refusal that may be retried: wait this long
}

type HeaderSource = { get(name: string): string | null };

// `"default";r=12;t=5` -> { name: 'default', params: { r: 12, t: 5 } } (a structured-field item).
function item(text: string): { name: string; params: Record<string, number> } {
  const [head = '', ...rest] = text.split(';').map((s) => s.trim());
  const params: Record<string, number> = {};
  for (const part of rest) {
    const [key, value] = part.split('=');
    const n = Number(value);
    if (key && value !== undefined && Number.isFinite(n)) params[key] = n;
  }
  return { name: head.replace(/^"|"$/g, ''), params };
}

const whole = (text: string | null): number | undefined => (text !== null && /^\d+$/.test(text.trim()) ? Number(text.trim()) : undefined);

// Retry-After is whole seconds from this server; an HTTP date is read too, as the field allows it.
export function retryAfterSeconds(text: string | null, now: number = Date.now()): number | undefined {
  if (text === null) return undefined;
  const seconds = whole(text);
  if (seconds !== undefined) return seconds;
  const at = Date.parse(text);
  return Number.isNaN(at) ? undefined : Math.max(0, Math.ceil((at - now) / 1000));
}

export function readRateLimit(headers: HeaderSource): RateLimitInfo {
  const info: RateLimitInfo = {};
  const policy = headers.get('ratelimit-policy');
  if (policy !== null) {
    const { name, params } = item(policy);
    if (name) info.policy = name;
    if (params['q'] !== undefined) info.limit = params['q'];
    if (params['w'] !== undefined) info.windowSeconds = params['w'];
  }
  const current = headers.get('ratelimit');
  if (current !== null) {
    const { params } = item(current);
    if (params['r'] !== undefined) info.remaining = params['r'];
    if (params['t'] !== undefined) info.resetSeconds = params['t'];
  }
  info.limit ??= whole(headers.get('x-ratelimit-limit'));
  info.remaining ??= whole(headers.get('x-ratelimit-remaining'));
  const retry = retryAfterSeconds(headers.get('retry-after'));
  if (retry !== undefined) info.retryAfterSeconds = retry;
  for (const key of Object.keys(info) as Array<keyof RateLimitInfo>) if (info[key] === undefined) delete info[key];
  return info;
}
