import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { peerText } from '../../src/http/peer';

const bytes = (...b: number[]) => new Uint8Array(b).buffer;

test('an IPv4-mapped peer is written as dotted IPv4', () => {
  assert.is(peerText(bytes(0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff, 127, 0, 0, 1)), '127.0.0.1');
});

test('a 4-byte peer is dotted IPv4', () => {
  assert.is(peerText(bytes(192, 0, 2, 1)), '192.0.2.1');
});

test('an IPv6 peer is written in RFC 5952 form', () => {
  assert.is(peerText(bytes(0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1)), '::1');
  assert.is(peerText(bytes(0x20, 0x01, 0x0d, 0xb8, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0x10)), '2001:db8::10');
});

test('a 16-byte address that only looks mapped in part stays IPv6', () => {
  assert.is(peerText(bytes(0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0xff, 0xff, 127, 0, 0, 1)), '::1:ffff:7f00:1');
});

test('an address of another length is unknown', () => {
  assert.is(peerText(bytes(1, 2, 3)), 'unknown');
});

test.run();
