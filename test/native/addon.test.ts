import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { addon } from '../../src/native/addon';
import pkg from '../../package.json';
import { notRoot, testUnless } from '../support/capability';

test('addon reports the package version it was built from', () => {
  assert.is(addon().version(), pkg.version);
});

test('addon exports every function and class its typed interface names', () => {
  const a = addon();
  for (const name of ['version', 'capabilities', 'closeStrayPollsAtTeardown', 'IcmpEngine', 'DnsEngine', 'TcpEngine', 'TurnEnd'] as const) {
    assert.type(a[name], 'function', name);
  }
});

test('addon reports for each ICMP socket kind whether it opens', () => {
  const caps = addon().capabilities();
  for (const family of ['v4', 'v6'] as const) {
    for (const kind of ['dgram', 'raw'] as const) {
      const outcome = caps.icmp[family][kind];
      assert.ok(outcome === true || (typeof outcome === 'string' && outcome.length > 0), `${family}.${kind}`);
    }
  }
});

testUnless(test, notRoot())('as root, raw ICMP sockets open', () => {
  const caps = addon().capabilities();
  assert.is(caps.icmp.v4.raw, true);
  assert.is(caps.icmp.v6.raw, true);
});

test.run();
