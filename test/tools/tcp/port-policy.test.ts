import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { refusePort } from '../../../src/policy/port-policy';

test('80, 443 and every port from 1024 up are allowed with no list', () => {
  for (const port of [80, 443, 1024, 8443, 65535]) assert.is(refusePort(port, []), null, String(port));
});

test('any other port below 1024 is refused with no list', () => {
  for (const port of [1, 22, 25, 79, 81, 445, 853, 1023]) assert.match(refusePort(port, []) ?? '', `port ${port} is refused`, String(port));
});

test('a listed port below 1024 is allowed, and the refusal names the list', () => {
  assert.is(refusePort(853, [465, 853]), null);
  assert.match(refusePort(25, [465, 853]) ?? '', '80, 443 and 465, 853');
});

test.run();
