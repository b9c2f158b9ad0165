import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { parseAddress, type Address } from '../../src/net/address';
import { StoreUnavailableError } from '../../src/ratelimit/failover-store';
import { refuseTarget, storeFailure } from '../../src/tools/target-admission';

const RAW_BOTH = { v4: 'raw', v6: 'raw', reasons: {} } as const;
const allowAll = () => null;

// A literal target as resolve-host hands it over.
const literal = (text: string) => ({ address: parseAddress(text) as Address, shown: text, literal: true });

test('a target in a refused range is target-forbidden, naming the address and the range', () => {
  assert.equal(refuseTarget(literal('127.0.0.1'), RAW_BOTH, () => 'loopback'), {
    code: 'target-forbidden',
    detail: '127.0.0.1 is in the refused range loopback',
    address: '127.0.0.1',
    range: 'loopback',
  });
});

test('a family without an ICMP socket is engine-unavailable, saying why', () => {
  const kinds = { v4: 'raw', v6: null, reasons: { v6: 'Address family not supported by protocol' } } as const;
  const refused = refuseTarget(literal('2001:db8::1'), kinds, allowAll);
  assert.equal(refused, { code: 'engine-unavailable', detail: 'no ICMP socket for IPv6 on this server: Address family not supported by protocol' });
  assert.is(refuseTarget(literal('192.0.2.1'), kinds, allowAll), null);
});

test('an unreachable shared store is store-unavailable with its Retry-After; any other error is no refusal but a fault', () => {
  assert.equal(storeFailure(new StoreUnavailableError(2)), { code: 'store-unavailable', detail: 'the shared store of per-target budgets cannot be reached; retry shortly', retryAfterSeconds: 2 });
  const bug = new TypeError('a bug');
  assert.is(storeFailure(bug), bug); // handed on as the error it is: the request's 500
});

test.run();
