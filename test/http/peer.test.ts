import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { normalisePeer } from '../../src/http/peer';

test('IPv4-mapped IPv6 text from uWS becomes dotted IPv4', () => {
  assert.is(normalisePeer('0000:0000:0000:0000:0000:ffff:7f00:0001'), '127.0.0.1');
  assert.is(normalisePeer('::ffff:c000:0201'), '192.0.2.1');
  assert.is(normalisePeer('::ffff:192.0.2.1'), '192.0.2.1');
});

test('IPv6 peers are written in RFC 5952 form', () => {
  assert.is(normalisePeer('0000:0000:0000:0000:0000:0000:0000:0001'), '::1');
  assert.is(normalisePeer('2001:0DB8:0000:0000:0000:0000:0000:0010'), '2001:db8::10');
});

test.run();
