import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { ClientLimiter, type RateDecision } from '../../src/ratelimit/client-limiter';
import { createPartitionKeyer, rateLimitHeaders, retryAfterHeader } from '../../src/ratelimit/headers';
import { fakeClock } from '../support/fake-clock';

const NOW_EPOCH_MS = 1_795_000_000_000;

function decisions(count: number, rate = { capacity: 30, windowMs: 60_000 }): RateDecision[] {
  const limiter = new ClientLimiter({ rate, now: fakeClock().now });
  return Array.from({ length: count }, () => limiter.check('198.51.100.7'));
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

test('the partition key appears in both IETF fields as a byte sequence', () => {
  const [first] = decisions(1);
  const pk = createPartitionKeyer()('198.51.100.7');
  const list = rateLimitHeaders(first!, { partitionKey: pk });
  assert.ok(header(list, 'RateLimit-Policy')!.endsWith(`;pk=:${pk}:`));
  assert.ok(header(list, 'RateLimit')!.endsWith(`;pk=:${pk}:`));
  assert.match(pk, /^[A-Za-z0-9+/]{16}$/);
});

test('a partition key does not reveal the client address', () => {
  const address = '198.51.100.7';
  const pk = createPartitionKeyer()(address);
  const decoded = Buffer.from(pk, 'base64').toString('latin1');
  assert.not.ok(pk.includes(address));
  assert.not.ok(decoded.includes(address));
  assert.not.ok(pk.includes(Buffer.from(address).toString('base64').slice(0, 8)));
});

test('a partition key is stable for one key and secret, and differs across keys and secrets', () => {
  const keyer = createPartitionKeyer(Buffer.alloc(32, 1));
  assert.is(keyer('2001:db8:1:2::/64'), keyer('2001:db8:1:2::/64'));
  assert.is.not(keyer('2001:db8:1:2::/64'), keyer('2001:db8:1:3::/64'));
  assert.is.not(keyer('192.0.2.1'), createPartitionKeyer(Buffer.alloc(32, 2))('192.0.2.1'));
});

test('the policy name is written as a structured-field string', () => {
  const [first] = decisions(1);
  assert.is(header(rateLimitHeaders(first!, { policy: 'per"client\\' }), 'RateLimit'), '"per\\"client\\\\";r=29;t=2');
});

test('a stand-alone Retry-After is whole seconds, rounded up, at least one', () => {
  assert.equal(retryAfterHeader(2.1), [['Retry-After', '3']]);
  assert.equal(retryAfterHeader(0), [['Retry-After', '1']]);
});

test.run();
