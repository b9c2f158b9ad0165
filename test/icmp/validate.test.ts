import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { IcmpError, checkEchoOptions, openPinger, pingLimits } from '../../src/engines/icmp';
import { fromNative } from '../../src/engines/icmp/errors';
import { nativeEngineClass, nativePing } from '../../src/engines/icmp/native';
import { addon } from '../../src/native/addon';

const base = { address: '127.0.0.1', family: 4 as const, count: 4, intervalMs: 200, timeoutMs: 1000, size: 56 };

test('sane options pass', () => {
  assert.is(checkEchoOptions(base), null);
  assert.is(checkEchoOptions({ ...base, address: 'fe80::1%lo', family: 6, ttl: 255 }), null);
});

test('each out-of-range or malformed option is named', () => {
  assert.match(checkEchoOptions({ ...base, family: 5 as never })!, 'family');
  assert.match(checkEchoOptions({ ...base, address: 42 as never })!, 'address');
  assert.match(checkEchoOptions({ ...base, address: 'example.test' })!, 'IPv4');
  assert.match(checkEchoOptions({ ...base, count: 1.5 })!, 'count');
  assert.match(checkEchoOptions({ ...base, intervalMs: 0 })!, 'intervalMs');
  assert.match(checkEchoOptions({ ...base, timeoutMs: 60001 })!, 'timeoutMs');
  assert.match(checkEchoOptions({ ...base, size: -1 })!, 'size');
  assert.match(checkEchoOptions({ ...base, ttl: 256 })!, 'ttl');
});

test('the limits are the engine\'s own, as the addon exports them', () => {
  assert.equal(pingLimits(), addon().IcmpEngine.limits);
  assert.equal(Object.keys(pingLimits()).sort(), ['count', 'intervalMs', 'size', 'timeoutMs', 'ttl']);
});

test('each limit admits both of its ends and refuses one past either', () => {
  const limits = pingLimits();
  for (const key of ['count', 'intervalMs', 'timeoutMs', 'size', 'ttl'] as const) {
    const [lo, hi] = limits[key];
    assert.is(checkEchoOptions({ ...base, [key]: lo }), null, `${key}=${lo}`);
    assert.is(checkEchoOptions({ ...base, [key]: hi }), null, `${key}=${hi}`);
    assert.match(checkEchoOptions({ ...base, [key]: lo - 1 })!, key);
    assert.match(checkEchoOptions({ ...base, [key]: hi + 1 })!, key);
  }
});

test('the engine itself refuses options past the same limits with invalid-options', () => {
  const Engine = nativeEngineClass();
  const engine = new Engine('auto');
  try {
    const limits = Engine.limits;
    for (const bad of [
      { ...base, count: limits.count[1] + 1 },
      { ...base, intervalMs: limits.intervalMs[0] - 1 },
      { ...base, timeoutMs: limits.timeoutMs[1] + 1 },
      { ...base, size: limits.size[1] + 1 },
      { ...base, ttl: limits.ttl[1] + 1 },
      { ...base, ttl: 2 ** 32 - 1 },
    ]) {
      try {
        nativePing(engine, bad, () => assert.unreachable('a refused ping called back'));
        assert.unreachable(`the engine accepted ${JSON.stringify(bad)}`);
      } catch (err) {
        assert.is((err as { code?: string }).code, 'invalid-options', JSON.stringify(bad));
      }
    }
    assert.is(engine.stats().sessions, 0);
  } finally {
    engine.close();
  }
});

test('the engine refuses a non-numeric option, a non-string address and a missing callback with invalid-options', () => {
  const engine = new (nativeEngineClass())('auto');
  const done = (): void => assert.unreachable('a refused ping called back');
  try {
    for (const [what, call] of [
      ['count as text', () => engine.ping('127.0.0.1', 4, '1' as never, 200, 1000, 56, -1, done)],
      ['address as a number', () => engine.ping(2130706433 as never, 4, 1, 200, 1000, 56, -1, done)],
      ['ttl as a fraction', () => engine.ping('127.0.0.1', 4, 1, 200, 1000, 56, 1.5, done)],
      ['no callback', () => (engine.ping as (...a: unknown[]) => number)('127.0.0.1', 4, 1, 200, 1000, 56, -1)],
    ] as const) {
      try {
        call();
        assert.unreachable(`the engine accepted ${what}`);
      } catch (err) {
        assert.is((err as { code?: string }).code, 'invalid-options', what);
      }
    }
    assert.is(engine.stats().sessions, 0);
  } finally {
    engine.close();
  }
});

test('native errors with a known code become IcmpError values; anything else passes through', () => {
  const coded = Object.assign(new Error('x'), { code: 'seq-exhausted' });
  const e = fromNative(coded);
  assert.instance(e, IcmpError);
  assert.is((e as IcmpError).code, 'seq-exhausted');
  const other = Object.assign(new Error('y'), { code: 'EOTHER' });
  assert.is(fromNative(other), other);
  assert.is(fromNative('text'), 'text');
});

test('an unknown socket kind is refused with invalid-options', () => {
  try {
    openPinger({ kind: 'stream' as never });
    assert.unreachable('openPinger accepted an unknown kind');
  } catch (err) {
    assert.instance(err, IcmpError);
    assert.is((err as IcmpError).code, 'invalid-options');
  }
});

test.run();
