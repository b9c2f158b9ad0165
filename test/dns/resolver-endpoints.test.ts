import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { errorCode, nativeEngineClass } from '../../src/engines/dns/native';
import { unpackOutcomes } from '../../src/engines/dns/unpack';
import type { NativeDnsEngine } from '../../src/native/dns-engine';

// The engine takes each resolver once (endpoint(address, port, tlsName?)) and its queries by that number.

function engine(): NativeDnsEngine {
  const Engine = nativeEngineClass();
  return new Engine();
}

test('the same address, port and TLS name give the same endpoint number', () => {
  const e = engine();
  try {
    const a = e.endpoint('127.0.0.1', 5353);
    assert.ok(a > 0);
    assert.is(e.endpoint('127.0.0.1', 5353), a);
    assert.is(e.endpoint('127.0.0.1', 5353, 'dns.test'), e.endpoint('127.0.0.1', 5353, 'dns.test'));
  } finally {
    e.close();
  }
});

test('another port, address or TLS name is another endpoint', () => {
  const e = engine();
  try {
    const ids = [e.endpoint('127.0.0.1', 5353), e.endpoint('127.0.0.1', 5354), e.endpoint('::1', 5353), e.endpoint('127.0.0.1', 5353, 'dns.test')];
    assert.is(new Set(ids).size, 4);
  } finally {
    e.close();
  }
});

test('an address, port or TLS name that is no such thing is endpoint 0', () => {
  const e = engine();
  try {
    assert.is(e.endpoint('resolver.invalid', 53), 0);
    assert.is(e.endpoint('127.0.0.1', 0), 0);
    assert.is(e.endpoint('127.0.0.1', 65536), 0);
    assert.is(e.endpoint('127.0.0.1', 853, ''), 0);
    assert.is(e.endpoint('127.0.0.1', 853, 'x'.repeat(254)), 0);
  } finally {
    e.close();
  }
});

function entryFor(e: NativeDnsEngine, endpoint: number) {
  let packed: unknown[] = [];
  const id = e.queryMany('example.test', ['A'], [endpoint], 500, (...p: unknown[]) => (packed = p));
  assert.is(id, 0, 'nothing could start, so the outcome came at once');
  return unpackOutcomes(packed, ['A'], 1)[0];
}

test('the queries of endpoint 0, or of a number the engine never gave, are invalid-address outcomes', () => {
  const e = engine();
  try {
    assert.equal(entryFor(e, 0), { error: 'invalid-address' });
    assert.equal(entryFor(e, 77), { error: 'invalid-address' });
    assert.equal(entryFor(e, -1), { error: 'invalid-address' });
  } finally {
    e.close();
  }
});

test('an engine refuses distinct endpoints past its bound and keeps those it has', () => {
  const e = engine();
  try {
    const first = e.endpoint('127.0.0.1', 1);
    for (let port = 2; port <= 1024; port++) e.endpoint('127.0.0.1', port);
    let code = '';
    try {
      e.endpoint('127.0.0.1', 1025);
    } catch (err) {
      code = errorCode(err);
    }
    assert.is(code, 'invalid-argument');
    assert.is(e.endpoint('127.0.0.1', 1), first);
  } finally {
    e.close();
  }
});

test.run();
