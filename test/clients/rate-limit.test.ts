import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { readRateLimit, retryAfterSeconds } from '../../clients/typescript/src/rate-limit';

const headers = (h: Record<string, string>) => new Headers(h);

test('the IETF RateLimit and RateLimit-Policy fields are read into one value', () => {
  const info = readRateLimit(headers({ ratelimit: '"pro";r=12;t=5', 'ratelimit-policy': '"pro";q=600;w=60', 'retry-after': '3' }));
  assert.equal(info, { policy: 'pro', limit: 600, windowSeconds: 60, remaining: 12, resetSeconds: 5, retryAfterSeconds: 3 });
});

test('the X-RateLimit fields stand in when the draft fields are absent', () => {
  assert.equal(readRateLimit(headers({ 'x-ratelimit-limit': '30', 'x-ratelimit-remaining': '0' })), { limit: 30, remaining: 0 });
});

test('an answer without rate-limit fields reads as empty', () => {
  assert.equal(readRateLimit(headers({ 'content-type': 'application/json' })), {});
});

test('Retry-After is read as seconds or as an HTTP date, and garbage is ignored', () => {
  assert.is(retryAfterSeconds('7'), 7);
  const now = Date.parse('2026-11-25T12:00:00Z');
  assert.is(retryAfterSeconds('Wed, 25 Nov 2026 12:00:04 GMT', now), 4);
  assert.is(retryAfterSeconds('Wed, 25 Nov 2026 11:00:00 GMT', now), 0);
  assert.is(retryAfterSeconds('soon'), undefined);
  assert.is(retryAfterSeconds(null), undefined);
});

test.run();
