// mtr against this machine's own loopback: the real server, the real engine, nothing leaves the host.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { MtrResult } from '../../src/tools/mtr/types';
import { postStream } from '../api/stream-reader';
import { assertMatchesSchema } from '../support/contract';
import { sniffEchoes } from '../support/echo-sniffer';
import { postJson } from '../support/http';
import { startServer, type RunningServer } from '../support/server';
import { sleep, waitFor } from '../support/wait';

const test = suite<{ server: RunningServer }>('mtr on loopback');

test.before(async (ctx) => {
  ctx.server = await startServer({ NETTOOLS_RESOLVERS: 'none=127.0.0.1:9', NETTOOLS_ALLOW_PRIVATE_TARGETS: 'true', NETTOOLS_RATE_LIMIT: '1000/1s', NETTOOLS_TARGET_TRACES_PER_MINUTE: '1000' });
});

test.after(async (ctx) => {
  await ctx.server?.stop();
});

test('a JSON mtr of 3 cycles to 127.0.0.1 reaches it at hop 1, every probe answered', async ({ server }) => {
  const reply = await postJson(server.base, '/api/tools/mtr', { host: '127.0.0.1', cycles: 3, intervalMs: 200 });
  assert.is(reply.status, 200, reply.text);
  const r = reply.json<MtrResult>();
  assertMatchesSchema('MtrResult', r);
  assert.equal([r.host, r.address, r.ipVersion, r.destinationReached, r.cycles], ['127.0.0.1', '127.0.0.1', 4, true, 3]);
  assert.is(r.hops.length, 1);
  const hop = r.hops[0]!;
  assert.equal([hop.ttl, hop.sent, hop.received, hop.lossPercent], [1, 3, 3, 0]);
  assert.equal(hop.addresses, [{ address: '127.0.0.1', count: 3 }]);
  assert.equal(hop.icmp, { type: 0, code: 0, name: 'echo-reply' });
  assert.ok(hop.bestMs! <= hop.avgMs! && hop.avgMs! <= hop.worstMs!, JSON.stringify(hop));
});

test('an mtr of ::1 runs over IPv6', async ({ server }) => {
  const reply = await postJson(server.base, '/api/tools/mtr', { host: '::1', cycles: 2, intervalMs: 200 });
  assert.is(reply.status, 200, reply.text);
  const r = reply.json<MtrResult>();
  assert.equal([r.ipVersion, r.destinationReached], [6, true]);
  assert.equal(r.hops.map((h) => [h.ttl, h.addresses, h.sent, h.received]), [[1, [{ address: '::1', count: 2 }], 2, 2]]);
  assert.equal(r.hops[0]!.icmp, { type: 129, code: 0, name: 'echo-reply' });
});

for (const [name, body, pointer] of [
  ['cycles 11 in a JSON request', { host: '127.0.0.1', cycles: 11 }, '/cycles'],
  ['intervalMs 100', { host: '127.0.0.1', intervalMs: 100 }, '/intervalMs'],
  ['maxHops 33', { host: '127.0.0.1', maxHops: 33 }, '/maxHops'],
  ['timeoutMs 50', { host: '127.0.0.1', timeoutMs: 50 }, '/timeoutMs'],
  ['an unknown field', { host: '127.0.0.1', hops: 3 }, '/hops'],
  ['asn not a boolean', { host: '127.0.0.1', asn: 'yes' }, '/asn'],
] as const) {
  test(`${name} is refused: 400 validation-failed pointing at ${pointer}`, async ({ server }) => {
    const reply = await postJson(server.base, '/api/tools/mtr', body);
    assert.is(reply.status, 400, reply.text);
    const problem = reply.json<{ code: string; errors: Array<{ pointer: string }> }>();
    assert.is(problem.code, 'validation-failed');
    assert.equal(problem.errors.map((e) => e.pointer), [pointer]);
  });
}

test('cycles 11 is accepted when the answer is streamed (up to 3600)', async ({ server }) => {
  const reply = await postJson(server.base, '/api/tools/mtr', { host: '127.0.0.1', cycles: 11, intervalMs: 200, timeoutMs: 100 }, { accept: 'application/x-ndjson' });
  assert.is(reply.status, 200, reply.text);
  const events = reply.text.trim().split('\n').map((line) => JSON.parse(line) as { event: string; data: any });
  assert.is(events.filter((e) => e.event === 'cycle').length, 11);
  assert.is(events.at(-1)!.data.hops[0].sent, 11);
});

test('streamed as server-sent events: start, a cycle event per cycle, then the summary', async ({ server }) => {
  const reply = await postJson(server.base, '/api/tools/mtr', { host: '127.0.0.1', cycles: 2, intervalMs: 200 }, { accept: 'text/event-stream' });
  assert.is(reply.status, 200, reply.text);
  assert.is(reply.headers['content-type'], 'text/event-stream; charset=utf-8');
  const names = [...reply.text.matchAll(/^event: (\S+)$/gm)].map((m) => m[1]);
  assert.equal(names, ['start', 'cycle', 'cycle', 'summary']);
});

test('a streamed mtr pays per ten cycles as it goes: a refused payment ends it with a problem event after cycle 10', async () => {
  // The destination's trace budget holds one unit a minute: the admission's, which pays cycles 1 to 10.
  const tight = await startServer({ NETTOOLS_RESOLVERS: 'none=127.0.0.1:9', NETTOOLS_ALLOW_PRIVATE_TARGETS: 'true', NETTOOLS_TARGET_TRACES_PER_MINUTE: '1' });
  try {
    const reply = await postJson(tight.base, '/api/tools/mtr', { host: '127.0.0.1', cycles: 12, intervalMs: 200, timeoutMs: 100 }, { accept: 'application/x-ndjson' });
    assert.is(reply.status, 200, reply.text);
    const events = reply.text.trim().split('\n').map((line) => JSON.parse(line) as { event: string; data: any });
    assert.equal(events.map((e) => e.event), ['start', ...Array<string>(10).fill('cycle'), 'problem']);
    assert.is(events.at(-1)!.data.code, 'target-rate-limited');
  } finally {
    await tight.stop();
  }
});

test("traceroute and mtr spend one trace budget of a destination: either tool's trace leaves the other 429", async () => {
  const tight = await startServer({ NETTOOLS_RESOLVERS: 'none=127.0.0.1:9', NETTOOLS_ALLOW_PRIVATE_TARGETS: 'true', NETTOOLS_TARGET_TRACES_PER_MINUTE: '1' });
  try {
    const statuses = async (first: string, second: string, host: string) => {
      const a = await postJson(tight.base, `/api/tools/${first}`, { host, cycles: first === 'mtr' ? 1 : undefined, timeoutMs: 300 });
      const b = await postJson(tight.base, `/api/tools/${second}`, { host, cycles: second === 'mtr' ? 1 : undefined, timeoutMs: 300 });
      return [a.status, b.status, b.json<{ code: string }>().code];
    };
    assert.equal(await statuses('traceroute', 'mtr', '127.0.0.2'), [200, 429, 'target-rate-limited']);
    assert.equal(await statuses('mtr', 'traceroute', '127.0.0.3'), [200, 429, 'target-rate-limited']);
  } finally {
    await tight.stop();
  }
});

test('a streamed mtr longer than NETTOOLS_STREAM_MAX_SECONDS is refused before it starts, at /cycles', async () => {
  const short = await startServer({ NETTOOLS_RESOLVERS: 'none=127.0.0.1:9', NETTOOLS_ALLOW_PRIVATE_TARGETS: 'true', NETTOOLS_STREAM_MAX_SECONDS: '2' });
  try {
    const reply = await postJson(short.base, '/api/tools/mtr', { host: '127.0.0.1', cycles: 20, intervalMs: 200 }, { accept: 'application/x-ndjson' });
    assert.is(reply.status, 400, reply.text);
    assert.equal(reply.json<{ errors: Array<{ pointer: string }> }>().errors.map((e) => e.pointer), ['/cycles']);
  } finally {
    await short.stop();
  }
});

test('a client that closes its streamed mtr stops the probes at once: no echo request on the wire after it left', async ({ server }) => {
  // mtr's echoes have one size (the trace engine's), so this run's are told apart by a loopback address
  // of their own, picked at random.
  const destination = `127.${64 + Math.floor(Math.random() * 190)}.${1 + Math.floor(Math.random() * 254)}.${1 + Math.floor(Math.random() * 254)}`;
  const sniffer = sniffEchoes({ destination, size: 32 });
  try {
    await sniffer.ready;
    const s = await postStream(server.base, '/api/tools/mtr', { host: destination, cycles: 100, intervalMs: 200, maxHops: 2, timeoutMs: 100 }, 'application/x-ndjson');
    await waitFor('the second cycle', async () => (s.text().match(/"event":"cycle"/g) ?? []).length >= 2, { everyMs: 10 });
    s.destroy();
    await waitFor('the server to free the request', async () => server.app.inFlight() === 0, { everyMs: 10 });
    const sent = await sniffer.settled();
    // The first cycle probes TTL 1 and perhaps 2 (it stops once the end of the path answered), each later
    // one TTL 1 only: the two cycles seen and perhaps one more that began as the client left.
    assert.ok(sent >= 2 && sent <= 5, `${sent} echoes before the client left`);
    // A bounded wait is the point here: five more intervals, in which an mtr that was not stopped would
    // have sent five more echoes.
    await sleep(1000);
    assert.is(await sniffer.settled(), sent);
  } finally {
    sniffer.stop();
  }
});

test.run();
