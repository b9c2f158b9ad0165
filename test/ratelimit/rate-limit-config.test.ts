import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { parseRateLimit } from '../../src/ratelimit/rate-limit-config';

function parsed(text: string): unknown {
  const result = parseRateLimit(text);
  return result.ok ? result.value : result.code;
}

test('the default 30/60s is a bucket of 30 refilled in 60 seconds', () => {
  assert.equal(parsed('30/60s'), { capacity: 30, windowMs: 60_000 });
});

test('every window unit is understood', () => {
  assert.equal(parsed('5/250ms'), { capacity: 5, windowMs: 250 });
  assert.equal(parsed('100/1m'), { capacity: 100, windowMs: 60_000 });
  assert.equal(parsed('1000/2h'), { capacity: 1000, windowMs: 7_200_000 });
});

test('a window without a number means one unit, and spaces around the parts are fine', () => {
  assert.equal(parsed('10/s'), { capacity: 10, windowMs: 1_000 });
  assert.equal(parsed(' 30 / 60 s '), { capacity: 30, windowMs: 60_000 });
});

test('malformed rate limits fail with rate-limit-malformed', () => {
  for (const text of ['', '30', '30/', '30/60', '/60s', '30/60d', '30/60S', '-1/60s', '3.5/60s', '30/1.5s', 'thirty/60s', '30/60s/1', '30/0x10s']) {
    assert.is(parsed(text), 'rate-limit-malformed', JSON.stringify(text));
  }
});

test('a zero count or zero window fails with rate-limit-zero', () => {
  assert.is(parsed('0/60s'), 'rate-limit-zero');
  assert.is(parsed('30/0s'), 'rate-limit-zero');
  assert.is(parsed('30/0ms'), 'rate-limit-zero');
});

test('limits beyond the bounds fail with rate-limit-too-large', () => {
  assert.is(parsed('1000001/1s'), 'rate-limit-too-large');
  assert.is(parsed('1/25h'), 'rate-limit-too-large');
  assert.is(parsed('9999999999/1s'), 'rate-limit-too-large');
});

test('the error message names the offending value', () => {
  const result = parseRateLimit('30/60d');
  assert.ok(!result.ok && result.message.includes('30/60d'));
});

test.run();
