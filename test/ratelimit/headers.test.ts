import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { ClientLimiter, type RateDecision } from '../../src/ratelimit/client-limiter';
import { createRateLimitHeaderWriter, retryAfterValue } from '../../src/ratelimit/headers';
import { answerNow } from '../support/answer';
import { fakeClock } from '../support/fake-clock';

const NOW_EPOCH_MS = 1_795_000_000_000;

function decisions(count: number, rate = { capacity: 30, windowMs: 60_000 }): RateDecision[] {
  const limiter = new ClientLimiter({ now: fakeClock().now });
  return Array.from({ length: count }, () => answerNow<RateDecision>((d) => limiter.check('198.51.100.7', undefined, rate, d)));
}

// "\r\nName: value" lines as [name, value] pairs; a line that is not one fails the test.
function headerLines(text: string): Array<[string, string]> {
  assert.ok(text.startsWith('\r\n'), JSON.stringify(text));
  return text.slice(2).split('\r\n').map((line) => {
    const colon = line.indexOf(': ');
    assert.ok(colon > 0, JSON.stringify(line));
    return [line.slice(0, colon), line.slice(colon + 2)];
  });
}

// The headers the server's writer produces for one decision, as a list.
function rateLimitHeaders(decision: RateDecision, options: { nowEpochMs?: number; policy?: string } = {}): Array<[string, string]> {
  const list: Array<[string, string]> = [];
  const write = createRateLimitHeaderWriter({ policy: options.policy, limit: decision.limit, windowMs: decision.windowMs });
  write(decision, { lines: (text) => list.push(...headerLines(text)) }, options.nowEpochMs);
  return list;
}

function header(list: Array<[string, string]>, name: string): string | undefined {
  return list.find(([n]) => n === name)?.[1];
}

test('an allowed request gets the IETF fields and the X-RateLimit fields, and no Retry-After', () => {
  const [first] = decisions(1);
  const list = rateLimitHeaders(first!, { nowEpochMs: NOW_EPOCH_MS });
  assert.equal(list, [
    ['RateLimit-Policy', '"default";q=30;w=60'],
    ['RateLimit', '"default";r=29;t=2'],
    ['X-RateLimit-Limit', '30'],
    ['X-RateLimit-Remaining', '29'],
    ['X-RateLimit-Reset', String(NOW_EPOCH_MS / 1000 + 2)],
  ]);
});

test('a refusal carries Retry-After in whole seconds and zero remaining', () => {
  const refused = decisions(31).at(-1)!;
  assert.not.ok(refused.allowed);
  const list = rateLimitHeaders(refused, { nowEpochMs: NOW_EPOCH_MS });
  assert.is(header(list, 'Retry-After'), '2');
  assert.is(header(list, 'RateLimit'), '"default";r=0;t=60');
  assert.is(header(list, 'X-RateLimit-Remaining'), '0');
});

test('X-RateLimit-Reset is the epoch second at which the bucket is full, rounded up', () => {
  const [first] = decisions(1, { capacity: 3, windowMs: 10_000 }); // full again in 3334 ms
  const list = rateLimitHeaders(first!, { nowEpochMs: NOW_EPOCH_MS + 100 });
  assert.is(header(list, 'X-RateLimit-Reset'), String(NOW_EPOCH_MS / 1000 + 4));
});

test('a refill window under one second is advertised as one second', () => {
  const [first] = decisions(1, { capacity: 5, windowMs: 250 });
  assert.is(header(rateLimitHeaders(first!), 'RateLimit-Policy'), '"default";q=5;w=1');
});

test('the policy name is written as a structured-field string', () => {
  const [first] = decisions(1);
  assert.is(header(rateLimitHeaders(first!, { policy: 'per"client\\' }), 'RateLimit'), '"per\\"client\\\\";r=29;t=2');
});

test('a stand-alone Retry-After is whole seconds, rounded up, at least one', () => {
  assert.is(retryAfterValue(2.1), '3');
  assert.is(retryAfterValue(0), '1');
});

test.run();
