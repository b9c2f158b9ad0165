// DoT resolvers (RFC 7858) in the native engine, against a real loopback unbound serving TLS with a
// certificate from a CA the test makes, forwarding to the test Knot. A second unbound presents a
// certificate for the same name from a CA nobody trusts.
import { execFileSync } from 'node:child_process';
import net from 'node:net';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { openResolverClient, type QueryAnswered, type QueryEntry, type RecordType, type ResolverClient } from '../../src/engines/dns';
import type { ResolverConfig } from '../../src/config/types';
import { coalesce } from '../../src/engines/dns/coalescing-client';
import { MemoryLimiterStore } from '../../src/ratelimit/memory-limiter-store';
import { ResolverBudget } from '../../src/ratelimit/resolver-budget';
import { Upstream } from '../../src/tools/upstream';
import { answerNow } from '../support/answer';
import { asked } from '../support/asked';
import { makeDotCertificates, type DotCertificates } from '../support/dot-certificates';
import { startKnot, type KnotServer } from '../support/knot';
import { freeTcpPort } from '../support/ports';
import { startUnbound, type UnboundServer } from '../support/unbound';
import { waitFor } from '../support/wait';
import { EXAMPLE_ZONE } from './zones';

interface Ctx {
  certs: DotCertificates;
  knot: KnotServer;
  unbound: UnboundServer;
  rogue: UnboundServer;
  client: ResolverClient;
}
const test = suite<Ctx>('DoT resolvers');

const NAME = 'dot.resolver.test';
const stubsOf = (knot: KnotServer) => [{ zone: 'example.test', address: knot.address, port: knot.port }];

test.before(async (ctx) => {
  ctx.certs = makeDotCertificates(NAME);
  ctx.knot = await startKnot([EXAMPLE_ZONE], '127.0.0.121');
  ctx.unbound = await startUnbound('127.0.0.122', stubsOf(ctx.knot), [], { tls: { pem: ctx.certs.pem, key: ctx.certs.key } });
  ctx.rogue = await startUnbound('127.0.0.123', stubsOf(ctx.knot), [], { tls: { pem: ctx.certs.untrustedPem, key: ctx.certs.untrustedKey } });
  ctx.client = openResolverClient(undefined, ctx.certs.caFile);
});

test.after(async (ctx) => {
  ctx.client?.close();
  await ctx.rogue?.stop();
  await ctx.unbound?.stop();
  await ctx.knot?.stop();
  ctx.certs?.remove();
});

async function ask(client: ResolverClient, resolvers: ResolverConfig[], domain: string, type: RecordType): Promise<QueryEntry[]> {
  const results = await client.query({ domain, types: [type], resolvers, timeoutMs: 3000 });
  return results.map((r) => r.queries[type] as QueryEntry);
}

function answered(entry: QueryEntry | undefined): QueryAnswered {
  assert.ok(entry !== undefined && 'rcode' in entry, `expected an answer, got ${JSON.stringify(entry)}`);
  return entry as QueryAnswered;
}

const sorted = (e: QueryAnswered) => e.answers.map(({ ttl: _ttl, ...rest }) => JSON.stringify(rest)).sort();

// Established TCP connections to the resolver's DoT port, as the kernel lists them.
function connectionsTo(address: string, port: number): number {
  const out = execFileSync('ss', ['-Htn', 'state', 'established', 'dst', `${address}:${port}`], { encoding: 'utf8' });
  return out.split('\n').filter((l) => l.trim() !== '').length;
}

test('an answer over TLS says transport tls and holds the records the same resolver gives over UDP', async ({ client, unbound }) => {
  const [viaTls, viaUdp] = await ask(client, [unbound.dotResolver('dot', NAME), unbound.resolver('udp')], 'example.test', 'MX');
  const tls = answered(viaTls);
  const udp = answered(viaUdp);
  assert.is(tls.transport, 'tls');
  assert.is(udp.transport, 'udp');
  assert.is(tls.rcode, 'NOERROR');
  assert.equal(sorted(tls), sorted(udp));
  assert.equal(sorted(tls), [JSON.stringify({ priority: 10, exchange: 'mail.example.test' }), JSON.stringify({ priority: 20, exchange: 'mx2.example.test' })]);
});

test('queries asked together go pipelined on one connection, which stays open for the next ones', async ({ unbound, certs }) => {
  const client = openResolverClient(undefined, certs.caFile);
  try {
    const dot = unbound.dotResolver('dot', NAME);
    // The suite's own client holds a connection of its own to the same resolver.
    const before = connectionsTo(unbound.address, unbound.tlsPort as number);
    const types: RecordType[] = ['A', 'AAAA', 'MX', 'TXT'];
    const results = await client.query({ domain: 'example.test', types, resolvers: [dot], timeoutMs: 3000 });
    for (const t of types) assert.is(answered(results[0]?.queries[t]).transport, 'tls');
    await ask(client, [dot], 'www.example.test', 'A');
    assert.is(client.counters().tlsConnections, 1);
    assert.is(client.counters().openTlsConnections, 1);
    assert.is(connectionsTo(unbound.address, unbound.tlsPort as number), before + 1);
  } finally {
    client.close();
  }
});

test('a connection idle for 10 s is closed; the next query opens another', async ({ unbound, certs }) => {
  const client = openResolverClient(undefined, certs.caFile);
  try {
    const dot = unbound.dotResolver('dot', NAME);
    await ask(client, [dot], 'example.test', 'A');
    assert.is(client.counters().openTlsConnections, 1);
    client.ageSockets(9_000);
    await new Promise((resolve) => setTimeout(resolve, 50));
    assert.is(client.counters().openTlsConnections, 1);
    client.ageSockets(1_000);
    await waitFor('the idle connection closed', () => client.counters().openTlsConnections === 0);
    assert.is(answered((await ask(client, [dot], 'example.test', 'A'))[0]).transport, 'tls');
    assert.is(client.counters().tlsConnections, 2);
  } finally {
    client.close();
  }
});

test('an answer too big for UDP (2.4 KB) comes whole over TLS, with no fall-back to TCP', async ({ client, unbound }) => {
  const [entry] = await ask(client, [unbound.dotResolver('dot', NAME)], 'big.example.test', 'TXT');
  const big = answered(entry);
  assert.is(big.transport, 'tls');
  assert.not.ok(big.flags.includes('tc'));
  assert.is(big.answers.length, 6);
  assert.is(client.counters().tcpFallbacks, 0);
});

test('a name the certificate is not for: tls-certificate-invalid for that resolver, the others still answer', async ({ client, unbound }) => {
  const [wrong, right, udp] = await ask(client, [unbound.dotResolver('wrong', 'other.resolver.test'), unbound.dotResolver('dot', NAME), unbound.resolver('udp')], 'onlya.example.test', 'A');
  assert.equal(wrong, { error: 'tls-certificate-invalid', detail: 'hostname mismatch' });
  assert.equal(answered(right).answers.map((a) => ('address' in a ? a.address : '')), ['192.0.2.9']);
  assert.is(answered(udp).rcode, 'NOERROR');
});

test('a certificate from a CA that is not trusted: tls-certificate-invalid', async ({ client, rogue }) => {
  const [entry] = await ask(client, [rogue.dotResolver('rogue', NAME)], 'example.test', 'A');
  assert.is((entry as { error?: string }).error, 'tls-certificate-invalid');
  assert.match((entry as { detail?: string }).detail ?? '', /local issuer certificate/);
});

test('without the test CA among its trust anchors the engine refuses the same resolver', async ({ unbound }) => {
  const client = openResolverClient();
  try {
    const [entry] = await ask(client, [unbound.dotResolver('dot', NAME)], 'example.test', 'A');
    assert.is((entry as { error?: string }).error, 'tls-certificate-invalid');
  } finally {
    client.close();
  }
});

test('nothing listening on the DoT port: connection-refused for that resolver', async ({ client }) => {
  const port = await freeTcpPort('127.0.0.122');
  const [entry] = await ask(client, [{ id: 'none', address: '127.0.0.122', port, family: 4, tlsName: NAME }], 'example.test', 'A');
  assert.equal(entry, { error: 'connection-refused' });
});

test('a server that closes the connection on the ClientHello: tls-handshake-failed, asked once', async ({ client }) => {
  let connections = 0;
  const closer = net.createServer((socket) => {
    connections++;
    socket.once('data', () => socket.destroy());
  });
  await new Promise<void>((resolve) => closer.listen({ host: '127.0.0.122', port: 0 }, resolve));
  try {
    const { port } = closer.address() as net.AddressInfo;
    const [entry] = await ask(client, [{ id: 'closer', address: '127.0.0.122', port, family: 4, tlsName: NAME }], 'example.test', 'A');
    assert.equal(entry, { error: 'tls-handshake-failed', detail: 'the connection closed during the handshake' });
    assert.is(connections, 1);
  } finally {
    await new Promise((resolve) => closer.close(resolve));
  }
});

test('identical questions to a DoT resolver in flight together go upstream once', async ({ unbound, certs }) => {
  const client = coalesce(openResolverClient(undefined, certs.caFile));
  try {
    const request = { domain: 'alias.example.test', types: ['A' as const], resolvers: [unbound.dotResolver('dot', NAME)], timeoutMs: 3000 };
    const [first, second] = await Promise.all([asked(client, request), asked(client, request)]);
    assert.equal(first?.[0]?.queries.A, second?.[0]?.queries.A);
    assert.is(answered(first?.[0]?.queries.A).transport, 'tls');
    assert.is(client.counters().queries, 1);
  } finally {
    client.close();
  }
});

test("a DoT resolver's budget is charged one token a query", async ({ unbound, certs }) => {
  const resolver = unbound.dotResolver('dot', NAME);
  // A clock that stands still: nothing refills while the queries run.
  const budget = new ResolverBudget(new MemoryLimiterStore({ max: 4 }), 10, () => 1_000_000);
  const upstream = new Upstream(coalesce(openResolverClient(undefined, certs.caFile)), budget, null, [resolver]);
  try {
    const result = await upstream.ask({ domain: 'example.test', types: ['A', 'AAAA', 'TXT'], resolvers: [resolver], timeoutMs: 3000 });
    assert.ok(result.ok && answered(result.results[0]?.queries.TXT).transport === 'tls');
    assert.is(answerNow<number>((d) => budget.remaining(resolver, d)), 7);
  } finally {
    upstream.close();
  }
});

test('after the resolver restarts, the next query reconnects and is answered', async (ctx) => {
  const client = openResolverClient(undefined, ctx.certs.caFile);
  try {
    const port = ctx.unbound.port;
    const tlsPort = ctx.unbound.tlsPort as number;
    answered((await ask(client, [ctx.unbound.dotResolver('dot', NAME)], 'example.test', 'A'))[0]);
    await ctx.unbound.stop();
    ctx.unbound = await startUnbound('127.0.0.122', stubsOf(ctx.knot), [], { tls: { pem: ctx.certs.pem, key: ctx.certs.key }, port, tlsPort });
    const [entry] = await ask(client, [ctx.unbound.dotResolver('dot', NAME)], 'example.test', 'AAAA');
    assert.is(answered(entry).transport, 'tls');
    assert.is(client.counters().tlsConnections, 2);
  } finally {
    client.close();
  }
});

test.run();
