import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { openResolverClient } from '../../src/engines/dns';
import { sendsOf } from '../../src/engines/dns/types';
import { answerA, startScriptedDns } from '../support/scripted-dns';
import { sleep, waitFor } from '../support/wait';

const ask = (client: ReturnType<typeof openResolverClient>, resolver: { id: string; address: string; port: number; family: 4 }, name: string, timeoutMs = 2000) =>
  client.query({ domain: name, types: ['A'], resolvers: [resolver], timeoutMs }).then(([r]) => r?.queries.A);

// A resolver that answers every query at once until told to drop, then drops the first datagram of
// each new query and answers its resend; the engine has learnt its (loopback) RTT before it drops.
async function lossyResolver(id: string, client: ReturnType<typeof openResolverClient>) {
  const firstSeen = new Set<string>();
  let dropping = false;
  const dns = await startScriptedDns((q, d) => {
    if (dropping && !firstSeen.has(q.name)) return void firstSeen.add(q.name);
    void d.send(answerA(q, '192.0.2.9'), q);
  });
  const resolver = { id, address: dns.address, port: dns.port, family: 4 as const };
  for (let i = 0; i < 5; i++) await ask(client, resolver, `warm${i}.example.test`); // the engine learns this resolver's RTT
  dropping = true;
  return { dns, resolver };
}

test('a resolver that drops the first datagram of each query is answered after about the floor, not half the budget', async () => {
  const client = openResolverClient();
  const { dns, resolver } = await lossyResolver('lossy', client);
  try {
    const entry = await ask(client, resolver, 'lost-once.example.test', 2000);
    assert.ok(entry && 'rttMs' in entry, JSON.stringify(entry));
    // Half the budget would be 1000 ms; the resend came at the resolver's resend time (the 50 ms floor).
    if (entry && 'rttMs' in entry) assert.ok(entry.rttMs < 500, `answered at ${entry.rttMs} ms: the resend waited for half the budget`);
    assert.is(sendsOf(entry), 2);
  } finally {
    client.close();
    await dns.stop();
  }
});

test('a slow resolver is not sent early resends', async () => {
  const dns = await startScriptedDns((q, d) => void setTimeout(() => void d.send(answerA(q, '192.0.2.9'), q), 300));
  const resolver = { id: 'slow', address: dns.address, port: dns.port, family: 4 as const };
  const client = openResolverClient();
  try {
    for (let i = 0; i < 6; i++) {
      const entry = await ask(client, resolver, `slow${i}.example.test`, 2000);
      assert.is(sendsOf(entry), 1, `query ${i} was resent`);
    }
    assert.is(dns.seen.length, 6);
  } finally {
    client.close();
    await dns.stop();
  }
});

test('a resolver never measured gets half the budget before its resend', async () => {
  const dns = await startScriptedDns(() => {});
  const resolver = { id: 'mute', address: dns.address, port: dns.port, family: 4 as const };
  const client = openResolverClient();
  try {
    const started = Date.now();
    const pending = ask(client, resolver, 'nobody.example.test', 1000);
    await sleep(300); // past the resend floor: that no resend comes has no event to wait for
    await waitFor('the first query at the resolver', () => dns.seen.length >= 1);
    assert.is(dns.seen.length, 1); // not resent at the floor
    await pending;
    assert.is(dns.seen.length, 2);
    assert.ok(Date.now() - started >= 900);
  } finally {
    client.close();
    await dns.stop();
  }
});

test('a burst of queries lost together backs the resend time off once, not once per query', async () => {
  const client = openResolverClient();
  const { dns, resolver } = await lossyResolver('bursty', client);
  try {
    // Forty first datagrams lost at once: forty misses at one moment.
    const burst = await Promise.all(Array.from({ length: 40 }, (_, i) => ask(client, resolver, `burst${i}.example.test`)));
    for (const entry of burst) assert.is(sendsOf(entry), 2);
    // Backed off once per miss, the resend time would be past the budget: no resend, a timeout.
    const after = await ask(client, resolver, 'after-the-burst.example.test', 2000);
    assert.ok(after && 'rttMs' in after, JSON.stringify(after));
    assert.is(sendsOf(after), 2);
  } finally {
    client.close();
    await dns.stop();
  }
});

test.run();
