import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { openResolverClient, type QueryAnswered, type ResolverClient } from '../../src/engines/dns';
import type { ResolverConfig } from '../../src/config/types';
import { startFaultDns, type FaultDns } from '../support/fault-dns';
import { startKnot, stopAllKnot, type KnotServer } from '../support/knot';
import { EXAMPLE_ZONE } from './zones';

let knot: KnotServer;
let fault: FaultDns;
let client: ResolverClient;
let faulty: ResolverConfig;

test.before(async () => {
  knot = await startKnot([EXAMPLE_ZONE]);
  fault = await startFaultDns({ address: knot.address, port: knot.port });
  faulty = { id: 'fault', address: fault.address, port: fault.port, family: 4 };
  client = openResolverClient();
});

test.after(async () => {
  client?.close();
  await fault?.stop();
  await stopAllKnot();
});

test('forged, foreign and broken datagrams are all dropped and the real answer wins', async () => {
  const before = client.counters();
  const sentBefore = { ...fault.sent };
  const [r] = await client.query({ domain: 'example.test', types: ['A'], resolvers: [faulty], timeoutMs: 3000 });
  const e = r?.queries.A as QueryAnswered;
  assert.is(e.rcode, 'NOERROR');
  assert.equal(e.answers.map((a) => ('address' in a ? a.address : '')).sort(), ['192.0.2.1', '192.0.2.2']);
  const after = client.counters();
  assert.is(fault.sent.queries - sentBefore.queries, 1, 'answered before any resend');
  assert.is(after.mismatchedDropped - before.mismatchedDropped, fault.sent.mismatched - sentBefore.mismatched);
  assert.is(after.malformedDropped - before.malformedDropped, fault.sent.malformed - sentBefore.malformed);
  assert.ok(fault.sent.mismatched - sentBefore.mismatched >= 5 && fault.sent.malformed - sentBefore.malformed >= 4);
});

test('the question name is compared case-insensitively: the flipped-case real answer is accepted', async () => {
  const [r] = await client.query({ domain: 'multi.example.test', types: ['TXT'], resolvers: [faulty], timeoutMs: 3000 });
  const e = r?.queries.TXT as QueryAnswered;
  assert.is(e.rcode, 'NOERROR');
  assert.equal(e.answers.map((a) => ('parts' in a ? a.parts : [])), [['first part', 'second part', 'third']]);
});

test('several queries in parallel through the hostile peer each get their own real answer', async () => {
  const [r] = await client.query({ domain: 'example.test', types: ['A', 'AAAA', 'MX', 'TXT'], resolvers: [faulty], timeoutMs: 3000 });
  const q = r?.queries ?? {};
  assert.is((q.A as QueryAnswered).answers.length, 2);
  assert.is((q.AAAA as QueryAnswered).answers.length, 2);
  assert.is((q.MX as QueryAnswered).answers.length, 2);
  assert.equal((q.TXT as QueryAnswered).answers, [{ value: 'v=spf1 -all', parts: ['v=spf1 -all'], ttl: 300 }]);
});

test('after the hostile traffic the engine still answers normally and holds no query open', async () => {
  const [r] = await client.query({ domain: 'example.test', types: ['A'], resolvers: [knot.resolver('knot')], timeoutMs: 2000 });
  assert.is((r?.queries.A as QueryAnswered).rcode, 'NOERROR');
  assert.is(client.counters().inFlight, 0);
});

test.run();
