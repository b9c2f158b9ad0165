// How the engine matches what comes back on a DoT connection to the queries waiting on it, against a
// scripted DoT server (real TLS, answers written by the test): by ID and question, in any order.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { openResolverClient, type QueryAnswered, type QueryEntry, type ResolverClient } from '../../src/engines/dns';
import type { ResolverConfig } from '../../src/config/types';
import { makeDotCertificates, type DotCertificates } from '../support/dot-certificates';
import { answerA, type SeenQuery } from '../support/scripted-dns';
import { startScriptedDot, type DotConnection, type ScriptedDot } from '../support/scripted-dot';

const NAME = 'scripted.dot.test';
const test = suite<{ certs: DotCertificates; client: ResolverClient }>('DoT answers matched to their queries');

test.before((ctx) => {
  ctx.certs = makeDotCertificates(NAME);
  ctx.client = openResolverClient(undefined, ctx.certs.caFile);
});

test.after((ctx) => {
  ctx.client?.close();
  ctx.certs?.remove();
});

const resolverOf = (dot: ScriptedDot): ResolverConfig => ({ id: 'scripted', address: dot.address, port: dot.port, family: 4, tlsName: NAME });

async function askA(client: ResolverClient, resolver: ResolverConfig, domain: string): Promise<QueryEntry | undefined> {
  const [result] = await client.query({ domain, types: ['A'], resolvers: [resolver], timeoutMs: 3000 });
  return result?.queries.A;
}

const addressOf = (e: QueryEntry | undefined) => ((e as QueryAnswered).answers[0] as { address: string }).address;

test('answers sent back in the reverse order of their queries each reach their own query', async ({ certs, client }) => {
  const held: Array<[SeenQuery, DotConnection]> = [];
  const dot = await startScriptedDot(certs.pem, certs.key, (q, conn) => {
    held.push([q, conn]);
    if (held.length < 4) return;
    for (const [query, c] of held.reverse()) c.send(answerA(query, `192.0.2.${query.name.charCodeAt(0) - 96}`));
  });
  try {
    const names = ['a.order.test', 'b.order.test', 'c.order.test', 'd.order.test'];
    const entries = await Promise.all(names.map((n) => askA(client, resolverOf(dot), n)));
    assert.equal(entries.map(addressOf), ['192.0.2.1', '192.0.2.2', '192.0.2.3', '192.0.2.4']);
    assert.is(dot.connections(), 1);
  } finally {
    await dot.stop();
  }
});

test('an answer with an ID nobody waits for and one to another question are dropped and counted; the query takes its own', async ({ certs, client }) => {
  const dot = await startScriptedDot(certs.pem, certs.key, (q, conn) => {
    conn.send(answerA(q, '192.0.2.66', q.id ^ 0x5555));
    const otherQuestion = answerA(q, '192.0.2.77');
    // The query ends with its question's type and class, then an 11-byte OPT record: the answer's
    // question is at the same place. AAAA there, not A.
    otherQuestion.writeUInt16BE(28, q.raw.length - 11 - 4);
    conn.send(otherQuestion);
    conn.send(answerA(q, '192.0.2.88'));
  });
  try {
    const before = client.counters().mismatchedDropped;
    const entry = await askA(client, resolverOf(dot), 'mixed.match.test');
    assert.is(addressOf(entry), '192.0.2.88');
    assert.is(client.counters().mismatchedDropped - before, 2);
  } finally {
    await dot.stop();
  }
});

test('a message that does not parse, under the ID of a waiting query, fails that query as malformed', async ({ certs, client }) => {
  const dot = await startScriptedDot(certs.pem, certs.key, (q, conn) => conn.send(answerA(q, '192.0.2.99').subarray(0, 20)));
  try {
    const entry = await askA(client, resolverOf(dot), 'cut.match.test');
    assert.is((entry as { error?: string }).error, 'malformed');
  } finally {
    await dot.stop();
  }
});

test('a DoT resolver on an IPv6 address answers over TLS', async ({ certs, client }) => {
  const dot = await startScriptedDot(certs.pem, certs.key, (q, conn) => conn.send(answerA(q, '192.0.2.6')), '::1');
  try {
    const entry = await askA(client, { id: 'v6', address: '::1', port: dot.port, family: 6, tlsName: NAME }, 'six.match.test');
    assert.is((entry as QueryAnswered).transport, 'tls');
    assert.is(addressOf(entry), '192.0.2.6');
  } finally {
    await dot.stop();
  }
});

test.run();
