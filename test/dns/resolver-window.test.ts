import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { addon } from '../../src/native/addon';
import { openResolverClient } from '../../src/engines/dns';
import { resolverWindow, windowShare } from '../../src/engines/dns/native';
import { sendsOf } from '../../src/engines/dns/types';
import { answerA, startScriptedDns } from '../support/scripted-dns';
import { sleep, waitFor } from '../support/wait';

// native/dns/dns_limits.h, as the addon exports it.
const WINDOW = resolverWindow();

test('a burst of more queries than the window reaches the resolver a window at a time, and every one is answered', async () => {
  let outstanding = 0;
  let most = 0;
  const dns = await startScriptedDns((q, d) => {
    outstanding++;
    most = Math.max(most, outstanding);
    // The first window's worth is held 200 ms, so the rest must wait for a slot; the rest is answered
    // at once, so that no resend time learnt from the first can come before its answer.
    const held = Number(/^q(\d+)\./.exec(q.name)?.[1]) < WINDOW;
    setTimeout(() => {
      outstanding--;
      void d.send(answerA(q, '192.0.2.9'), q);
    }, held ? 200 : 0);
  });
  const resolver = { id: 'slow', address: dns.address, port: dns.port, family: 4 as const };
  const client = openResolverClient();
  try {
    const asked = Array.from({ length: WINDOW + 44 }, (_, i) => client.query({ domain: `q${i}.example.test`, types: ['A'], resolvers: [resolver], timeoutMs: 3000 }));
    const entries = (await Promise.all(asked)).map(([r]) => r?.queries.A);
    assert.is(most, WINDOW);
    assert.is(dns.seen.length, WINDOW + 44); // nothing resent: the wait for a slot is not a loss
    for (const entry of entries) {
      assert.ok(entry && 'answers' in entry, JSON.stringify(entry));
      assert.is(sendsOf(entry), 1);
    }
  } finally {
    client.close();
    await dns.stop();
  }
});

test('a query that waits for a slot past its budget times out without being sent', async () => {
  const dns = await startScriptedDns(() => {}); // never answers: the window stays full
  const resolver = { id: 'mute', address: dns.address, port: dns.port, family: 4 as const };
  const client = openResolverClient();
  try {
    const full = Array.from({ length: WINDOW }, (_, i) => client.query({ domain: `f${i}.example.test`, types: ['A'], resolvers: [resolver], timeoutMs: 2000 }));
    const [late] = await client.query({ domain: 'late.example.test', types: ['A'], resolvers: [resolver], timeoutMs: 300 });
    assert.equal(late?.queries.A, { error: 'timeout' });
    assert.is(sendsOf(late?.queries.A), 0);
    assert.not.ok(dns.seen.some((q) => q.name === 'late.example.test'));
    await Promise.all(full);
  } finally {
    client.close();
    await dns.stop();
  }
});

test('a cancelled query frees its slot for the next in line', async () => {
  const dns = await startScriptedDns((q, d) => {
    if (q.name.startsWith('next')) void d.send(answerA(q, '192.0.2.9'), q);
  });
  const resolver = { id: 'mute-then-answering', address: dns.address, port: dns.port, family: 4 as const };
  const client = openResolverClient();
  try {
    const holders = Array.from({ length: WINDOW }, (_, i) => {
      const ac = new AbortController();
      return { ac, answer: client.query({ domain: `h${i}.example.test`, types: ['A'], resolvers: [resolver], timeoutMs: 5000 }, ac.signal) };
    });
    const next = client.query({ domain: 'next.example.test', types: ['A'], resolvers: [resolver], timeoutMs: 5000 });
    await waitFor('the window full at the resolver', () => dns.seen.filter((q) => q.name.startsWith('h')).length >= WINDOW);
    await sleep(50); // that the next one is not sent has no event to wait for
    assert.not.ok(dns.seen.some((q) => q.name === 'next.example.test')); // waiting for a slot
    holders[0]!.ac.abort();
    const [answered] = await next;
    assert.ok(answered?.queries.A && 'answers' in answered.queries.A, JSON.stringify(answered));
    for (const h of holders) h.ac.abort();
    await Promise.all(holders.map((h) => h.answer));
  } finally {
    client.close();
    await dns.stop();
  }
});

test('an engine given a share of the window puts at most its share on the wire to one resolver', async () => {
  const share = windowShare(16); // 16 worker threads: 16 each
  // Distinct queries the resolver holds unanswered. A resend on a slow machine is the same query in the same
  // slot: it must not read as one more, nor keep its name held once the first answer has freed that slot
  // (counting copies did, and read 31 on a loaded machine).
  const held = new Set<string>();
  const answered = new Set<string>();
  let most = 0;
  const dns = await startScriptedDns((q, d) => {
    if (!answered.has(q.name)) held.add(q.name);
    most = Math.max(most, held.size);
    setTimeout(() => {
      held.delete(q.name);
      answered.add(q.name);
      void d.send(answerA(q, '192.0.2.9'), q);
    }, 100);
  });
  const resolver = { id: 'shared', address: dns.address, port: dns.port, family: 4 as const };
  const client = openResolverClient(share);
  try {
    const asked = Array.from({ length: share * 3 }, (_, i) => client.query({ domain: `s${i}.example.test`, types: ['A'], resolvers: [resolver], timeoutMs: 3000 }));
    for (const [r] of await Promise.all(asked)) assert.ok(r && 'answers' in (r.queries.A ?? {}), JSON.stringify(r?.queries));
    assert.is(share, 16);
    assert.is(most, share);
  } finally {
    client.close();
    await dns.stop();
  }
});

test('the window is shared out evenly between worker threads, at least one each', () => {
  assert.equal([1, 2, 3, 32, 300].map(windowShare), [WINDOW, 128, 85, 8, 1]);
});

test('the window is the DNS engine\'s own limit, as the addon exports it (DnsEngine.limits)', () => {
  const limits = addon().DnsEngine.limits;
  assert.equal(limits, { windowPerResolver: [1, WINDOW] });
  assert.ok(Object.isFrozen(limits));
});

test('an engine refuses a window share outside 1 to the whole window', () => {
  for (const bad of [0, WINDOW + 1, Number.NaN]) assert.throws(() => openResolverClient(bad), /windowPerResolver/);
});

test.run();
