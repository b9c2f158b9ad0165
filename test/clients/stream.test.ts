import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { NettoolsClient, NettoolsError, resolversFailed, type DnsEvent, type PingEvent, type WaitNotice } from '../../clients/typescript/src/index';
import { assertMatchesSchema } from '../support/contract';
import { createNetns, type Netns } from '../support/netns';
import { freeTcpPort } from '../support/ports';
import { sleep, waitFor } from '../support/wait';
import type { RunningServer } from '../support/server';
import { fullBucket, startRig, stopRig, type Rig } from './servers';
import { startMuteServer, startSilentResolver, type Silent } from './silent-resolver';

// pingStream() and dnsStream() against a real server on loopback Knot resolvers.
const test = suite<Rig & { counted: Netns; silent53: Silent; mute: RunningServer }>('typed client, streamed calls');

test.before(async (ctx) => {
  Object.assign(ctx, await startRig(131));
  // A host that answers every echo and counts the echo requests that reach it.
  ctx.counted = createNetns();
  ctx.counted.exec(['iptables', '-A', 'INPUT', '-p', 'icmp', '--icmp-type', 'echo-request', '-j', 'ACCEPT']);
  ctx.silent53 = await startSilentResolver('127.0.0.134');
  ctx.mute = await startMuteServer(ctx.knots[0]!, ctx.silent53);
});

test.after(async (ctx) => {
  await ctx.mute?.stop();
  await ctx.silent53?.close();
  ctx.counted?.destroy();
  await stopRig(ctx);
});

const client = (base: string, more: Partial<ConstructorParameters<typeof NettoolsClient>[0]> = {}) => new NettoolsClient({ baseUrl: base, ...more });

async function collect<E>(events: AsyncIterable<E>): Promise<E[]> {
  const out: E[] = [];
  for await (const e of events) out.push(e);
  return out;
}

// What a for-await loop over the stream throws, or null when it ended normally.
async function thrown(events: AsyncIterable<unknown>): Promise<{ error: NettoolsError; seen: unknown[] } | null> {
  const seen: unknown[] = [];
  try {
    for await (const e of events) seen.push(e);
    return null;
  } catch (err) {
    assert.instance(err, NettoolsError);
    return { error: err as NettoolsError, seen };
  }
}

// Echo requests that reached the counting host, from its iptables rule's packet counter.
function echoesReceived(ns: Netns): number {
  const line = ns.exec(['iptables', '-nvxL', 'INPUT']).split('\n').find((l) => /ACCEPT\s+1\s/.test(l) || /icmptype 8/.test(l));
  return Number(line?.trim().split(/\s+/)[0]);
}

test('pingStream() yields start, each reply in order, then a summary shaped as ping() answers', async ({ open }) => {
  const c = client(open.base);
  const events: PingEvent[] = await collect(c.pingStream({ host: '127.0.0.1', count: 3, intervalMs: 100 }));
  assert.equal(events.map((e) => e.event), ['start', 'reply', 'reply', 'reply', 'summary']);
  const [start, ...rest] = events;
  assert.ok(start?.event === 'start' && start.data.address === '127.0.0.1' && start.data.count === 3);
  const summary = rest.at(-1)!;
  assert.ok(summary.event === 'summary');
  assertMatchesSchema('PingResult', summary.data);
  assert.equal(summary.data.replies, rest.slice(0, 3).map((e) => e.data));
  const plain = await c.ping({ host: '127.0.0.1', count: 3, intervalMs: 100 });
  assert.ok(plain.ok);
  assert.equal(Object.keys(summary.data), Object.keys(plain.value));
  assert.equal(summary.data.packets, plain.value.packets);
});

test('dnsStream() yields start, one answer per resolver and type, then a summary shaped as dns() answers', async ({ open }) => {
  const c = client(open.base);
  const request = { domain: 'example.test', types: ['MX', 'TXT'] as Array<'MX' | 'TXT'>, resolvers: ['a', 'b'] };
  const events: DnsEvent[] = await collect(c.dnsStream(request));
  assert.equal(events.map((e) => e.event), ['start', 'answer', 'answer', 'answer', 'answer', 'summary']);
  const answers = events.filter((e): e is Extract<DnsEvent, { event: 'answer' }> => e.event === 'answer');
  assert.equal(new Set(answers.map((a) => `${a.data.resolver} ${a.data.type}`)), new Set(['a MX', 'a TXT', 'b MX', 'b TXT']));
  const summary = events.at(-1)!;
  assert.ok(summary.event === 'summary');
  assertMatchesSchema('DnsResult', summary.data);
  const plain = await c.dns(request);
  assert.ok(plain.ok);
  assert.equal(summary.data.records, plain.value.records);
  assert.equal(Object.keys(summary.data), Object.keys(plain.value));
});

test('breaking out after the second reply aborts the request: no further echo reaches the host', async ({ open, counted }) => {
  const before = echoesReceived(counted);
  let replies = 0;
  for await (const e of client(open.base).pingStream({ host: counted.nsV4, count: 10, intervalMs: 300 })) {
    if (e.event === 'reply' && ++replies === 2) break;
  }
  await waitFor('the server to free the request', async () => open.app.inFlight() === 0);
  const sent = echoesReceived(counted) - before;
  assert.ok(sent >= 2 && sent <= 3, `${sent} echoes before the loop broke`);
  await sleep(1000); // three more intervals: a ping still running would have sent three more echoes
  assert.is(echoesReceived(counted) - before, sent);
});

test("the caller's signal aborting mid-stream throws an aborted error and stops the echoes", async ({ open, counted }) => {
  const before = echoesReceived(counted);
  const controller = new AbortController();
  const events = client(open.base).pingStream({ host: counted.nsV4, count: 10, intervalMs: 300 }, { signal: controller.signal });
  const result = await thrown(
    (async function* () {
      for await (const e of events) {
        yield e;
        if (e.event === 'reply') controller.abort();
      }
    })(),
  );
  assert.is(result?.error.error.kind, 'aborted');
  await waitFor('the server to free the request', async () => open.app.inFlight() === 0);
  const sent = echoesReceived(counted) - before;
  await sleep(700); // two more intervals
  assert.is(echoesReceived(counted) - before, sent);
});

test('a refusal before the start throws the typed problem, and nothing is yielded', async ({ open }) => {
  const result = await thrown(client(open.base).pingStream({ host: '127.0.0.1', count: 5000 }));
  assert.ok(result !== null);
  assert.equal(result.seen, []);
  const { error } = result.error;
  assert.ok(error.kind === 'problem');
  assert.is(error.status, 400);
  assert.is(error.problem.code, 'validation-failed');
  assert.equal(error.problem.errors, [{ pointer: '/count', message: 'must be <= 3600' }]);
  assert.match(result.error.requestId ?? '', /^[0-9a-f-]{36}$/);
});

test('a 429 before the start is waited out as Retry-After says, then the stream runs', async ({ limited }) => {
  await fullBucket(limited.base);
  const notices: WaitNotice[] = [];
  const c = client(limited.base, { onWait: (n) => notices.push(n) });
  const ask = { domain: 'example.test', types: ['A'] as Array<'A'>, resolvers: ['a'] };
  assert.ok((await c.dns(ask)).ok);
  assert.ok((await c.dns(ask)).ok);
  const events = await collect(c.dnsStream(ask));
  assert.equal(events.map((e) => e.event), ['start', 'answer', 'summary']);
  assert.equal(notices.map((n) => [n.status, n.code, n.attempt]), [[429, 'rate-limited', 1]]);
  assert.is(c.lastRateLimit.limit, 2);
});

test('with retry off, a 429 before the start is thrown with its Retry-After', async ({ limited }) => {
  await fullBucket(limited.base);
  const c = client(limited.base, { retry: false });
  const ask = { domain: 'example.test', types: ['A'] as Array<'A'>, resolvers: ['a'] };
  await c.dns(ask);
  await c.dns(ask);
  const result = await thrown(c.dnsStream(ask));
  assert.ok(result?.error.error.kind === 'problem' && result.error.error.problem.code === 'rate-limited');
  assert.ok((result.error.rateLimit.retryAfterSeconds ?? 0) >= 1);
  assert.equal(result.error.waits, []);
});

test('a problem event after the start is thrown as the typed problem, after the events before it', async ({ mute }) => {
  const result = await thrown(client(mute.base).dnsStream({ domain: 'example.test', types: ['A'], resolvers: ['m'], timeoutMs: 200 }));
  assert.ok(result !== null);
  assert.is((result.seen[0] as DnsEvent).event, 'start');
  assert.not.ok(result.seen.some((e) => (e as DnsEvent).event === 'summary'));
  const { error } = result.error;
  assert.ok(error.kind === 'problem', JSON.stringify(error));
  assert.is(error.problem.code, 'upstream-timeout');
  assert.is(error.status, error.problem.status);
});

test('resolvers that refuse end a started dns stream with the upstream-failed problem, thrown typed', async ({ open }) => {
  // Knot refuses a name outside its zones.
  const result = await thrown(client(open.base).dnsStream({ domain: 'www.elsewhere.test', types: ['A'], resolvers: ['a'] }));
  assert.ok(result !== null);
  assert.is((result.seen[0] as DnsEvent).event, 'start');
  const { error } = result.error;
  assert.ok(error.kind === 'problem' && error.problem.code === 'upstream-failed', JSON.stringify(error));
  assert.is(error.status, 502);
  assert.ok(resolversFailed(error));
});

test("an answer that is not a stream (an HTML page) is thrown as unexpected", async ({ open }) => {
  // A front door that serves its own page whatever was asked: a GET of the docs page in place of the POST.
  const page = (_url: string | URL | Request, init?: RequestInit) => fetch(`${open.base}/docs`, { signal: init?.signal ?? null });
  const result = await thrown(client(open.base, { fetch: page }).pingStream({ host: '127.0.0.1', count: 1 }));
  assert.ok(result?.error.error.kind === 'unexpected');
  assert.match(result.error.message, 'text/html');
});

test('no server listening is thrown as a network error', async () => {
  const port = await freeTcpPort('127.0.0.1');
  const result = await thrown(client(`http://127.0.0.1:${port}`).pingStream({ host: '127.0.0.1', count: 1 }));
  assert.ok(result?.error.error.kind === 'network');
  assert.match(result.error.message, 'ECONNREFUSED');
});

test.run();
