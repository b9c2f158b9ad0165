import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { requestValidators } from '../../src/tools/registry';
import { parseAddress } from '../../src/net/address';
import type { Validate } from '../../src/validation/validator';

const v = requestValidators(['r1', 'r2']) as Record<'ping' | 'dns', Validate<any>>;

function errorsOf(body: Record<string, unknown>) {
  const r = v.ping(body);
  assert.not.ok(r.ok, `expected ${JSON.stringify(body)} to be refused`);
  return r.ok ? [] : r.errors;
}

test('defaults fill count, intervalMs, timeoutMs and size', () => {
  const r = v.ping({ host: '127.0.0.1' });
  const target = { kind: 'ipv4', value: '127.0.0.1', address: parseAddress('127.0.0.1') };
  assert.equal(r, { ok: true, value: { host: '127.0.0.1', target, count: 4, intervalMs: 200, timeoutMs: 1000, size: 56 } });
});

test('the request carries the host parsed once: the name or the address value the tool takes', () => {
  const r = v.ping({ host: '[FD00::1]' });
  assert.ok(r.ok);
  assert.is(r.value.host, 'fd00::1');
  assert.equal(r.value.target, { kind: 'ipv6', value: 'fd00::1', address: parseAddress('fd00::1') });
  const named = v.ping({ host: 'Bücher.Example' });
  assert.ok(named.ok);
  assert.equal(named.value.target, { kind: 'name', value: 'xn--bcher-kva.example' });
});

test('missing host points at /host', () => {
  assert.equal(errorsOf({}), [{ pointer: '/host', message: 'is required' }]);
});

test('an unknown field is refused with its pointer', () => {
  assert.equal(errorsOf({ host: 'a.test', cuont: 3 }), [{ pointer: '/cuont', message: 'is not a known field' }]);
});

test('a member name with "/" is escaped in the pointer', () => {
  assert.is(errorsOf({ host: 'a.test', 'a/b~c': 1 })[0]?.pointer, '/a~1b~0c');
});

for (const [field, bad] of [
  ['count', 0],
  ['count', 11],
  ['count', 2.5],
  ['count', '4'],
  ['intervalMs', 99],
  ['intervalMs', 1001],
  ['timeoutMs', 99],
  ['timeoutMs', 5001],
  ['size', -1],
  ['size', 1401],
  ['ipVersion', 5],
  ['ipVersion', '4'],
] as const) {
  test(`${field} = ${JSON.stringify(bad)} is refused at /${field}`, () => {
    assert.is(errorsOf({ host: 'a.test', [field]: bad })[0]?.pointer, `/${field}`);
  });
}

test('bounds themselves are accepted', () => {
  for (const body of [
    { host: 'a.test', count: 1, intervalMs: 100, timeoutMs: 100, size: 0, ipVersion: 4 },
    { host: 'a.test', count: 10, intervalMs: 1000, timeoutMs: 5000, size: 1400, ipVersion: 6 },
  ]) assert.ok(v.ping(body).ok, JSON.stringify(body));
});

test('several errors are all reported', () => {
  const pointers = errorsOf({ count: 0, size: 9999 }).map((e) => e.pointer).sort();
  assert.equal(pointers, ['/count', '/host', '/size']);
});

const accepted: Array<[string, string]> = [
  ['192.0.2.10', '192.0.2.10'],
  ['2001:db8::10', '2001:db8::10'],
  ['[2001:DB8::10]', '2001:db8::10'],
  ['Example.COM', 'example.com'],
  ['example.com.', 'example.com'],
  ['bücher.example', 'xn--bcher-kva.example'],
  ['例え.テスト', 'xn--r8jz45g.xn--zckzah'],
  ['a-b.c0', 'a-b.c0'],
  ['localhost', 'localhost'],
];
for (const [input, normalised] of accepted) {
  test(`host ${JSON.stringify(input)} is accepted as ${normalised}`, () => {
    const r = v.ping({ host: input });
    assert.ok(r.ok);
    if (r.ok) assert.is(r.value.host, normalised);
  });
}

const refused = [
  'http://example.com',
  'example.com/path',
  'example.com:80',
  '192.0.2.1:80',
  '[::1]:80',
  'exa mple.com',
  'example.com\n',
  '\texample.com',
  'a\u0000b',
  'user@example.com',
  '-lead.example',
  'trail-.example',
  'a..b',
  '.lead',
  '1.2.3',
  '999.1.1.1',
  'under_score.example',
  'x'.repeat(64) + '.example',
  ('a'.repeat(63) + '.').repeat(4) + 'com',
  'fe80::1%eth0',
  '[::1',
  '',
];
for (const host of refused) {
  test(`host ${JSON.stringify(host)} is refused at /host`, () => {
    assert.is(errorsOf({ host })[0]?.pointer, '/host');
  });
}

test.run();
