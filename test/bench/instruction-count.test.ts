import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { totalIr } from '../../bench/lib/callgrind';
import { callsTo } from '../../bench/lib/callgrind-calls';
import { completeResponse, freshLabel, requestBytes } from '../../bench/lib/sequential-client';

test('every request of a fresh-name scenario has the same length, whatever its number', () => {
  const body = JSON.stringify({ domain: '{fresh}.fresh.bench.test' });
  const first = requestBytes(8080, '/api/tools/dns', body, freshLabel('a', 0));
  const later = requestBytes(8080, '/api/tools/dns', body, freshLabel('b', 123456));
  assert.is(first.length, later.length);
  assert.ok(first.toString().endsWith('{"domain":"a0000000.fresh.bench.test"}'));
});

test('a response is complete only once its whole body is in', () => {
  const head = 'HTTP/1.1 400 Bad Request\r\nContent-Type: application/problem+json\r\nContent-Length: 5\r\n\r\n';
  assert.is(completeResponse(Buffer.from(head + 'abc')), null);
  assert.equal(completeResponse(Buffer.from(head + 'abcdeHTTP/1.1')), { end: head.length + 5, status: 400 });
});

test("a callgrind dump's total is its totals line", () => {
  assert.is(totalIr('version: 1\nevents: Ir\nfn=(1) main\n3 10\ntotals: 123456\n'), 123456);
  assert.throws(() => totalIr('events: Ir\n'), /without totals/);
});

test('the calls a dump records to a function, and the instructions inside them, are summed over its callers by compressed name', () => {
  const dump = [
    'fn=(1) main',
    '0 5',
    "cfn=(2) void cork<0>(int)'2",
    'calls=3 0',
    '0 30',
    'cfn=(3) write',
    'calls=7 0',
    '0 70',
    'fn=(4) loop',
    'cob=(1) /lib/x.so',
    'cfn=(2)',
    'calls=4 0',
    '0 40',
    'calls=9 0',
    '0 90',
  ].join('\n');
  assert.equal(callsTo(dump, (name) => name === 'void cork<0>(int)'), { calls: 7, ir: 70 });
  assert.equal(callsTo(dump, (name) => name === 'write'), { calls: 7, ir: 70 });
  assert.equal(callsTo(dump, (name) => name === 'main'), { calls: 0, ir: 0 });
});

test.run();
