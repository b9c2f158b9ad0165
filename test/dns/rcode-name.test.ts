import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { rcodeName } from '../../src/engines/dns/unpack';

test('the rcodes a header can carry are named as RFC 1035 and RFC 2136 name them', () => {
  assert.equal([0, 1, 2, 3, 4, 5].map(rcodeName), ['NOERROR', 'FORMERR', 'SERVFAIL', 'NXDOMAIN', 'NOTIMP', 'REFUSED']);
  assert.equal([6, 7, 8, 9, 10].map(rcodeName), ['YXDOMAIN', 'YXRRSET', 'NXRRSET', 'NOTAUTH', 'NOTZONE']);
});

test('an rcode without a name is shown as RCODE and its number', () => {
  assert.is(rcodeName(11), 'RCODE11');
  assert.is(rcodeName(15), 'RCODE15');
});

test.run();
