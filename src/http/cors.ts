import type { Exchange } from './exchange';

// Headers a browser script may read from a tool response (rate-limit state, retry hints, tracing).
const EXPOSED = 'RateLimit, RateLimit-Policy, X-RateLimit-Limit, X-RateLimit-Remaining, X-RateLimit-Reset, Retry-After, WWW-Authenticate, X-Request-Id';

const ALLOW_ORIGIN_LINE = '\r\nAccess-Control-Allow-Origin: ';
const EXPOSE_LINE = `\r\nAccess-Control-Expose-Headers: ${EXPOSED}`;

// Allow-Origin on every tool response, as the contract says; the long Expose-Headers list only where a
// browser asked (an Origin header), since nothing else reads it.
export function addCorsHeaders(ex: Exchange, origin: string, crossOrigin: boolean): void {
  ex.lines(ALLOW_ORIGIN_LINE + origin);
  if (crossOrigin) ex.lines(EXPOSE_LINE);
  if (origin !== '*') ex.header('Vary', 'Origin');
}

export function answerPreflight(ex: Exchange, origin: string, allow: string): void {
  ex.header('Access-Control-Allow-Origin', origin);
  ex.header('Access-Control-Allow-Methods', allow);
  ex.header('Access-Control-Allow-Headers', 'Content-Type, Authorization');
  ex.header('Access-Control-Max-Age', '600');
  if (origin !== '*') ex.header('Vary', 'Origin');
  ex.send(204, null, null);
}
