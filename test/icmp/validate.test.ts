import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { IcmpError } from '../../src/engines/icmp/errors';
import { openPinger } from '../../src/engines/icmp/pinger';
import { pingLimits } from '../../src/engines/icmp/limits';
import { ip } from '../support/address';
import { fromNative } from '../../src/engines/icmp/errors';
import { nativeEngineClass, nativePing } from '../../src/engines/icmp/native';
import { addon } from '../../src/native/addon';
import { PING_LIMITS, PING_STREAM_LIMITS } from '../../src/tools/ping/schema';

const LOOPBACK = Uint8Array.from([127, 0, 0, 1]);
const base = { address: ip('127.0.0.1'), count: 4, intervalMs: 200, timeoutMs: 1000, size: 56 };

test('the limits are the engine\'s own, as the addon exports them', () => {
  assert.equal(pingLimits(), addon().IcmpEngine.limits);
  assert.equal(Object.keys(pingLimits()).sort(), ['count', 'intervalMs', 'size', 'timeoutMs', 'ttl']);
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
        nativePing(engine, bad, () => assert.unreachable('a refused ping called back'), false);
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

test("every ping option the request schemas admit lies within the engine's limits: the one check at the edge suffices", () => {
  const limits = pingLimits();
  for (const bounds of [PING_LIMITS, { ...PING_LIMITS, ...PING_STREAM_LIMITS }]) {
    for (const key of ['count', 'intervalMs', 'timeoutMs', 'size'] as const) {
      assert.ok(bounds[key].minimum >= limits[key][0] && bounds[key].maximum <= limits[key][1], key);
    }
  }
});

test('the engine refuses bytes of the wrong length for the family with invalid-address', () => {
  const engine = new (nativeEngineClass())('auto');
  const done = (): void => assert.unreachable('a refused ping called back');
  try {
    for (const [bytes, family] of [[new Uint8Array(16), 4], [LOOPBACK, 6], [new Uint8Array(0), 4], [new Uint8Array(5), 4]] as const) {
      try {
        engine.ping(bytes, family, 1, 200, 1000, 56, -1, done);
        assert.unreachable(`the engine accepted ${bytes.length} bytes as IPv${family}`);
      } catch (err) {
        assert.is((err as { code?: string }).code, 'invalid-address', `${bytes.length} bytes as IPv${family}`);
      }
    }
    assert.is(engine.stats().sessions, 0);
  } finally {
    engine.close();
  }
});

test('the engine refuses a non-numeric option, an address that is no Uint8Array, a missing callback and a report it cannot make with invalid-options', () => {
  const engine = new (nativeEngineClass())('auto');
  const done = (): void => assert.unreachable('a refused ping called back');
  try {
    for (const [what, call] of [
      ['count as text', () => engine.ping(LOOPBACK, 4, '1' as never, 200, 1000, 56, -1, done)],
      ['address as a number', () => engine.ping(2130706433 as never, 4, 1, 200, 1000, 56, -1, done)],
      ['address as text', () => engine.ping('127.0.0.1' as never, 4, 1, 200, 1000, 56, -1, done)],
      ['address as an array of numbers', () => engine.ping([127, 0, 0, 1] as never, 4, 1, 200, 1000, 56, -1, done)],
      ['address as a Uint16Array', () => engine.ping(new Uint16Array(2) as never, 4, 1, 200, 1000, 56, -1, done)],
      ['ttl as a fraction', () => engine.ping(LOOPBACK, 4, 1, 200, 1000, 56, 1.5, done)],
      ['no callback', () => (engine.ping as (...a: unknown[]) => number)(LOOPBACK, 4, 1, 200, 1000, 56, -1)],
      ['report as a function', () => engine.ping(LOOPBACK, 4, 1, 200, 1000, 56, -1, done, done as never)],
      ['report from an engine made without a reports function', () => engine.ping(LOOPBACK, 4, 1, 200, 1000, 56, -1, done, true)],
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
