import dgram from 'node:dgram';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { openResolverClient, type EngineCounters, type QueryAnswered, type ResolverClient } from '../../src/engines/dns';
import { isAnswered } from '../../src/engines/dns/types';
import type { ResolverConfig } from '../../src/config/types';
import { startFaultDns, type FaultDns } from '../support/fault-dns';
import { startKnot, stopAllKnot, type KnotServer } from '../support/knot';
import { answerA, startScriptedDns, type ScriptedDns, type SeenQuery } from '../support/scripted-dns';
import { waitFor } from '../support/wait';
import { EXAMPLE_ZONE } from './zones';

// Queries of a short burst share one UDP socket; these check that sharing keeps every query's answer its own.

const ADDRESSES: Record<string, string> = { 'one.test': '198.51.100.1', 'two.test': '198.51.100.2' };
const ROTATE_AFTER = 64; // queries per socket before the engine moves to a fresh one

let knot: KnotServer;
let fault: FaultDns;
let client: ResolverClient;
const peers: ScriptedDns[] = [];

test.before(async () => {
  knot = await startKnot([EXAMPLE_ZONE]);
  fault = await startFaultDns({ address: knot.address, port: knot.port });
  client = openResolverClient();
});

test.after(async () => {
  client?.close();
  await Promise.all(peers.map((p) => p.stop()));
  await fault?.stop();
  await stopAllKnot();
});

async function peer(onQuery: (q: SeenQuery, dns: ScriptedDns) => void): Promise<{ dns: ScriptedDns; resolver: ResolverConfig }> {
  const dns = await startScriptedDns(onQuery);
  peers.push(dns);
  return { dns, resolver: { id: `scripted${peers.length}`, address: dns.address, port: dns.port, family: 4 } };
}

function addresses(entry: unknown): string[] {
  assert.ok(isAnswered(entry as QueryAnswered), `expected an answer, got ${JSON.stringify(entry)}`);
  return (entry as QueryAnswered).answers.map((a) => ('address' in a ? a.address : ''));
}

// The socket age limit, 250 ms, passed without waiting for it: the engine's sockets are made older.
const PAST_THE_AGE_LIMIT_MS = 300;

// Ends the current socket's life, so the next query opens a fresh one that stays open a while.
function freshSocket(): void {
  client.ageSockets(PAST_THE_AGE_LIMIT_MS);
}

// Whether nothing listens on a loopback UDP port: a datagram to a closed port comes back as ICMP port
// unreachable, which a connected socket reports as ECONNREFUSED (a port someone reads stays silent).
function udpPortClosed(address: string, port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const probe = dgram.createSocket(address.includes(':') ? 'udp6' : 'udp4');
    const done = (closed: boolean) => {
      clearTimeout(bound);
      probe.close();
      resolve(closed);
    };
    const bound = setTimeout(() => done(false), 5000);
    probe.on('error', (err: NodeJS.ErrnoException) => done(err.code === 'ECONNREFUSED'));
    probe.connect(port, address, () => probe.send(Buffer.from('late answer')));
  });
}

// Waits (bounded) for a counter to move: a dropped datagram leaves no other trace.
async function counterReaches(read: () => EngineCounters, key: keyof EngineCounters, target: number): Promise<number> {
  await waitFor(`the ${key} counter at ${target}`, () => read()[key] >= target);
  return read()[key];
}

test('two queries in flight on one socket each get only their own answer; a crossed answer is dropped', async () => {
  const { resolver } = await peer((_q, dns) => {
    if (dns.seen.length !== 2) return;
    const [a, b] = dns.seen as [SeenQuery, SeenQuery];
    void (async () => {
      // Each query's answer under the other's ID first: right socket, right source, wrong question.
      await dns.send(answerA(a, ADDRESSES[a.name] ?? '', b.id), b);
      await dns.send(answerA(b, ADDRESSES[b.name] ?? '', a.id), a);
      await dns.send(answerA(a, ADDRESSES[a.name] ?? ''), a);
      await dns.send(answerA(b, ADDRESSES[b.name] ?? ''), b);
    })();
  });
  const before = client.counters();
  const [one, two] = await Promise.all(
    ['one.test', 'two.test'].map((domain) => client.query({ domain, types: ['A'], resolvers: [resolver], timeoutMs: 3000 })),
  );
  assert.equal(addresses(one?.[0]?.queries.A), ['198.51.100.1']);
  assert.equal(addresses(two?.[0]?.queries.A), ['198.51.100.2']);
  const seen = peers[peers.length - 1]?.seen ?? [];
  assert.is(seen.length, 2, 'no resend was needed');
  assert.is(seen[0]?.port, seen[1]?.port, 'both queries left from one socket');
  assert.is.not(seen[0]?.id, seen[1]?.id);
  assert.is(client.counters().mismatchedDropped - before.mismatchedDropped, 2);
});

test('the hostile peer sees the four queries of one request come from one source port', async () => {
  const from = fault.sourcePorts.length;
  const [r] = await client.query({ domain: 'example.test', types: ['A', 'AAAA', 'MX', 'TXT'], resolvers: [{ id: 'fault', address: fault.address, port: fault.port, family: 4 }], timeoutMs: 3000 });
  for (const type of ['A', 'AAAA', 'MX', 'TXT'] as const) assert.is((r?.queries[type] as QueryAnswered).rcode, 'NOERROR');
  assert.is(new Set(fault.sourcePorts.slice(from)).size, 1);
});

test('the socket rotates to a fresh source port once its age runs out', async () => {
  const resolver: ResolverConfig = { id: 'fault', address: fault.address, port: fault.port, family: 4 };
  const from = fault.sourcePorts.length;
  await client.query({ domain: 'example.test', types: ['A'], resolvers: [resolver], timeoutMs: 3000 });
  client.ageSockets(PAST_THE_AGE_LIMIT_MS);
  const [r] = await client.query({ domain: 'example.test', types: ['A'], resolvers: [resolver], timeoutMs: 3000 });
  assert.is((r?.queries.A as QueryAnswered).rcode, 'NOERROR');
  const ports = fault.sourcePorts.slice(from);
  assert.is(ports.length, 2);
  assert.is.not(ports[0], ports[1]);
});

test('the socket rotates after 64 queries, and no socket carries more', async () => {
  const { dns, resolver } = await peer((q, d) => void d.send(answerA(q, '198.51.100.9'), q));
  const requests = Array.from({ length: 40 }, () =>
    client.query({ domain: 'one.test', types: ['A', 'AAAA', 'MX', 'TXT'], resolvers: [resolver], timeoutMs: 3000 }),
  );
  const results = await Promise.all(requests);
  for (const [r] of results) for (const entry of Object.values(r?.queries ?? {})) assert.ok(isAnswered(entry));
  const perPort = new Map<number, number>();
  for (const q of dns.seen) perPort.set(q.port, (perPort.get(q.port) ?? 0) + 1);
  assert.is(dns.seen.length, 160, 'every query sent once');
  assert.ok(perPort.size >= 3, `160 queries need at least 3 sockets, saw ${perPort.size}`);
  for (const count of perPort.values()) assert.ok(count <= ROTATE_AFTER, `a socket carried ${count} queries`);
});

test('an answer for a query that has settled is dropped and counted, not taken by a later query', async () => {
  const { dns, resolver } = await peer((q, d) => {
    void (async () => {
      await d.send(answerA(q, '198.51.100.1'), q);
      await d.send(answerA(q, '198.51.100.66'), q); // a duplicate: arrives after the query settled
    })();
  });
  freshSocket();
  const before = client.counters();
  const [r] = await client.query({ domain: 'one.test', types: ['A'], resolvers: [resolver], timeoutMs: 3000 });
  assert.equal(addresses(r?.queries.A), ['198.51.100.1']);
  const after = await counterReaches(() => client.counters(), 'mismatchedDropped', before.mismatchedDropped + 1);
  assert.is(after - before.mismatchedDropped, 1);
  assert.is(client.counters().answered - before.answered, 1);
  assert.is(client.counters().inFlight, 0);
  assert.is(dns.seen.length, 1);
});

test('no transaction ID is used twice on one socket, so a late answer can only be for its own query', async () => {
  const { dns, resolver } = await peer((q, d) => void d.send(answerA(q, '198.51.100.7'), q));
  // Waves back to back: later queries reuse the socket of settled ones while it is still open.
  for (let wave = 0; wave < 8; wave++) {
    const results = await Promise.all(
      Array.from({ length: 4 }, () => client.query({ domain: 'two.test', types: ['A', 'AAAA', 'MX', 'TXT'], resolvers: [resolver], timeoutMs: 3000 })),
    );
    for (const [r] of results) for (const entry of Object.values(r?.queries ?? {})) assert.ok(isAnswered(entry));
  }
  const idsByPort = new Map<number, number[]>();
  for (const q of dns.seen) idsByPort.set(q.port, [...(idsByPort.get(q.port) ?? []), q.id]);
  assert.is(dns.seen.length, 128);
  for (const [port, ids] of idsByPort) assert.is(new Set(ids).size, ids.length, `an ID repeated on source port ${port}`);
  assert.ok([...idsByPort.values()].some((ids) => ids.length > 16), 'some socket outlived one wave');
});

test('a datagram larger than any answer we ask for is dropped as malformed and the real one still wins', async () => {
  const { resolver } = await peer((q, d) => {
    void (async () => {
      await d.send(Buffer.concat([answerA(q, '198.51.100.66'), Buffer.alloc(5000)]), q);
      await d.send(answerA(q, '198.51.100.1'), q);
    })();
  });
  const before = client.counters();
  const [r] = await client.query({ domain: 'one.test', types: ['A'], resolvers: [resolver], timeoutMs: 3000 });
  assert.equal(addresses(r?.queries.A), ['198.51.100.1']);
  assert.is(client.counters().malformedDropped - before.malformedDropped, 1);
});

test('an idle socket closes once its age runs out: an answer sent to it later is never read', async () => {
  const { dns, resolver } = await peer((q, d) => void d.send(answerA(q, '198.51.100.1'), q));
  freshSocket();
  const [r] = await client.query({ domain: 'one.test', types: ['A'], resolvers: [resolver], timeoutMs: 3000 });
  assert.equal(addresses(r?.queries.A), ['198.51.100.1']);
  const query = dns.seen[0] as SeenQuery;
  // While the socket is open, a repeat of the answer is read and dropped as a settled query's.
  const before = client.counters().mismatchedDropped;
  await dns.send(answerA(query, '198.51.100.1'), query);
  assert.is(await counterReaches(() => client.counters(), 'mismatchedDropped', before + 1), before + 1);
  client.ageSockets(PAST_THE_AGE_LIMIT_MS);
  await waitFor('the idle socket closed', () => client.counters().openSockets === 0);
  assert.ok(await udpPortClosed(query.address, query.port), 'nothing reads the closed socket\'s port');
  assert.is(client.counters().mismatchedDropped, before + 1);
});

test.run();
