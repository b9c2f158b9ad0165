import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { IcmpError, checkPingOptions, openPinger } from '../../src/engines/icmp';
import { fromNative } from '../../src/engines/icmp/errors';

const base = { address: '127.0.0.1', family: 4 as const, count: 4, intervalMs: 200, timeoutMs: 1000, size: 56 };

test('sane options pass', () => {
  assert.is(checkPingOptions(base), null);
  assert.is(checkPingOptions({ ...base, address: 'fe80::1%lo', family: 6, ttl: 255 }), null);
});

test('each out-of-range or malformed option is named', () => {
  assert.match(checkPingOptions({ ...base, family: 5 as never })!, 'family');
  assert.match(checkPingOptions({ ...base, address: 42 as never })!, 'address');
  assert.match(checkPingOptions({ ...base, address: 'example.test' })!, 'IPv4');
  assert.match(checkPingOptions({ ...base, count: 1.5 })!, 'count');
  assert.match(checkPingOptions({ ...base, intervalMs: 0 })!, 'intervalMs');
  assert.match(checkPingOptions({ ...base, timeoutMs: 60001 })!, 'timeoutMs');
  assert.match(checkPingOptions({ ...base, size: -1 })!, 'size');
  assert.match(checkPingOptions({ ...base, ttl: 256 })!, 'ttl');
});

test('native errors with a known code become IcmpError values; anything else passes through', () => {
  const coded = Object.assign(new Error('x'), { code: 'ICMP_SEQ_EXHAUSTED' });
  const e = fromNative(coded);
  assert.instance(e, IcmpError);
  assert.is((e as IcmpError).code, 'ICMP_SEQ_EXHAUSTED');
  const other = Object.assign(new Error('y'), { code: 'EOTHER' });
  assert.is(fromNative(other), other);
  assert.is(fromNative('text'), 'text');
});

test('an unknown socket kind is refused with ICMP_BAD_OPTIONS', () => {
  try {
    openPinger({ kind: 'stream' as never });
    assert.unreachable('openPinger accepted an unknown kind');
  } catch (err) {
    assert.instance(err, IcmpError);
    assert.is((err as IcmpError).code, 'ICMP_BAD_OPTIONS');
  }
});

test.run();
