import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { MAX_HEADER_BYTES, MAX_HEADERS, reportHeaders } from '../../../src/tools/http/response-headers';

// What the check reports of an answer's headers, whatever a server sends.
const test = suite('http check: response headers');

const raw = (pairs: Array<[string, string]>) => pairs.flat();

test('names are lower-cased and a name given twice is one entry, its values joined', () => {
  assert.equal(reportHeaders(raw([['Content-Type', 'text/plain'], ['Vary', 'Accept'], ['vary', 'Origin']])), { headers: { 'content-type': 'text/plain', vary: 'Accept, Origin' }, truncated: false });
});

test('each Set-Cookie value is replaced by its length in bytes', () => {
  assert.equal(reportHeaders(raw([['Set-Cookie', 'a=1'], ['set-cookie', 'session=é']])).headers, { 'set-cookie': '3 bytes, 10 bytes' });
});

test(`past ${MAX_HEADERS} names the rest are left out and truncated is true`, () => {
  const many = Array.from({ length: MAX_HEADERS + 6 }, (_, i): [string, string] => [`X-H${i}`, 'v']);
  const reported = reportHeaders(raw(many));
  assert.is(Object.keys(reported.headers).length, MAX_HEADERS);
  assert.is(reported.headers['x-h0'], 'v');
  assert.is(reported.headers[`x-h${MAX_HEADERS}`], undefined);
  assert.is(reported.truncated, true);
});

test(`past ${MAX_HEADER_BYTES} bytes of names and values the rest are left out`, () => {
  const big = 'x'.repeat(6000);
  const reported = reportHeaders(raw([['A', big], ['B', big], ['C', big], ['D', 'small']]));
  assert.equal(Object.keys(reported.headers), ['a', 'b', 'd']);
  assert.is(reported.truncated, true);
});

test('a name inherited from Object.prototype is a header like any other', () => {
  assert.is(JSON.stringify(reportHeaders(raw([['__proto__', 'x'], ['constructor', 'y']])).headers), '{"__proto__":"x","constructor":"y"}');
});

test.run();
