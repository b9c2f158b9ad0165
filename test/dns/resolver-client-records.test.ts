import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { openResolverClient, type QueryAnswered, type QueryEntry, type RecordType, type ResolverClient } from '../../src/engines/dns';
import { startKnot, stopAllKnot, type KnotServer } from '../support/knot';
import { BROKEN_ZONE, EXAMPLE_ZONE, NOUDP_ZONE } from './zones';

let knot: KnotServer;
let client: ResolverClient;

test.before(async () => {
  knot = await startKnot([EXAMPLE_ZONE, NOUDP_ZONE, BROKEN_ZONE], '127.0.0.2');
  client = openResolverClient();
});

test.after(async () => {
  client?.close();
  await stopAllKnot();
});

async function ask(domain: string, type: RecordType): Promise<QueryEntry | undefined> {
  const [result] = await client.query({ domain, types: [type], resolvers: [knot.resolver('knot')], timeoutMs: 2000 });
  return result?.queries[type];
}

async function answered(domain: string, type: RecordType): Promise<QueryAnswered> {
  const entry = await ask(domain, type);
  assert.ok(entry && 'rcode' in entry, `expected an answer, got ${JSON.stringify(entry)}`);
  return entry as QueryAnswered;
}

test('A: every record of the RRset comes back with its TTL', async () => {
  const e = await answered('example.test', 'A');
  assert.is(e.rcode, 'NOERROR');
  assert.is(e.transport, 'udp');
  assert.equal(
    [...e.answers].sort((a, b) => JSON.stringify(a).localeCompare(JSON.stringify(b))),
    [{ address: '192.0.2.1', ttl: 300 }, { address: '192.0.2.2', ttl: 300 }],
  );
});

test('AAAA: addresses come back in RFC 5952 canonical form', async () => {
  const e = await answered('example.test', 'AAAA');
  assert.equal(e.answers.map((a) => ('address' in a ? a.address : '')).sort(), ['2001:db8::10', '2001:db8::11']);
});

test('MX: priority and exchange, the exchange without the trailing dot', async () => {
  const e = await answered('example.test', 'MX');
  const mx = e.answers.map((a) => ('exchange' in a ? `${a.priority} ${a.exchange}` : '')).sort();
  assert.equal(mx, ['10 mail.example.test', '20 mx2.example.test']);
});

test('TXT: the character-strings of one record are kept as parts and joined as value', async () => {
  const e = await answered('multi.example.test', 'TXT');
  assert.equal(e.answers, [{ value: 'first partsecond partthird', parts: ['first part', 'second part', 'third'], ttl: 300 }]);
});

test('CNAME chains are followed to the requested type and every link is reported', async () => {
  const e = await answered('www.example.test', 'A');
  assert.equal(e.answers, [{ address: '192.0.2.50', ttl: 300 }]);
  assert.equal(e.cnames, [
    { name: 'www.example.test', target: 'alias.example.test', ttl: 300 },
    { name: 'alias.example.test', target: 'host.example.test', ttl: 300 },
  ]);
});

test('a name that does not exist is NXDOMAIN with no answers, not an error', async () => {
  const e = await answered('nope.example.test', 'A');
  assert.is(e.rcode, 'NXDOMAIN');
  assert.equal(e.answers, []);
});

test('a name without records of the type is NOERROR with no answers', async () => {
  const e = await answered('onlya.example.test', 'MX');
  assert.is(e.rcode, 'NOERROR');
  assert.equal(e.answers, []);
  assert.is(e.cnames, undefined);
});

test('a zone whose file is missing answers SERVFAIL, reported as an rcode', async () => {
  const e = await answered('broken.test', 'A');
  assert.is(e.rcode, 'SERVFAIL');
});

test('a name outside the served zones is REFUSED, reported as an rcode', async () => {
  const e = await answered('elsewhere.invalid', 'A');
  assert.is(e.rcode, 'REFUSED');
});

test('flags report what the server set: authoritative Knot sets qr, aa, echoes rd, never ra', async () => {
  const e = await answered('example.test', 'A');
  assert.equal(e.flags, ['qr', 'aa', 'rd']);
});

test('rttMs is a positive duration with at most microsecond precision', async () => {
  const e = await answered('example.test', 'A');
  assert.ok(e.rttMs > 0);
  assert.is(Math.round(e.rttMs * 1000) / 1000, e.rttMs);
});

test('TXT parts keep their order and are read as UTF-8, a byte that is no UTF-8 as U+FFFD', async () => {
  const e = await answered('mixed.example.test', 'TXT');
  assert.is(e.answers.length, 1);
  const [txt] = e.answers;
  assert.ok(txt !== undefined && 'parts' in txt);
  assert.equal(txt.parts, ['a', 'caf\u00e9', 'b', 'bad\ufffd', 'c']);
  assert.is(txt.value, 'acaf\u00e9bbad\ufffdc');
});

test('a TXT set too large for UDP arrives whole over TCP after the truncated UDP answer', async () => {
  const before = client.counters().tcpFallbacks;
  const e = await answered('big.example.test', 'TXT');
  assert.is(e.transport, 'tcp');
  assert.is(e.answers.length, 6);
  for (const a of e.answers) assert.ok('parts' in a && a.parts.length === 2 && a.value.length === 400);
  assert.is(client.counters().tcpFallbacks, before + 1);
});

test('an answer with more numbers than the shared array holds arrives whole and in order', async () => {
  const e = await answered('manymx.example.test', 'MX');
  assert.is(e.transport, 'tcp');
  assert.is(e.answers.length, 2200);
  const priorities = e.answers.map((a) => ('priority' in a ? a.priority : -1)).sort((x, y) => x - y);
  assert.equal(priorities, Array.from({ length: 2200 }, (_, i) => i));
  for (const a of e.answers) assert.ok('exchange' in a && a.exchange === `m${a.priority}.example.test` && a.ttl > 0);
});

test('a server that truncates every UDP answer (mod-noudp) is answered over TCP', async () => {
  const e = await answered('noudp.test', 'A');
  assert.is(e.transport, 'tcp');
  assert.equal(e.answers, [{ address: '192.0.2.77', ttl: 300 }]);
});

test('all requested types go to the resolver at once and each gets its own entry', async () => {
  const [r] = await client.query({
    domain: 'example.test',
    types: ['A', 'AAAA', 'MX', 'TXT'],
    resolvers: [knot.resolver('knot')],
    timeoutMs: 2000,
  });
  assert.equal(Object.keys(r?.queries ?? {}), ['A', 'AAAA', 'MX', 'TXT']);
  for (const entry of Object.values(r?.queries ?? {})) assert.ok(entry && 'rcode' in entry && entry.answers.length > 0);
});

test('case in the asked name does not matter: the answer still matches', async () => {
  const e = await answered('EXAMPLE.test', 'A');
  assert.is(e.answers.length, 2);
});

test.run();
