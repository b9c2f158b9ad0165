import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { assertMatchesSchema } from '../support/contract';
import { sniffEchoes } from '../support/echo-sniffer';
import { postJson, request } from '../support/http';
import { assertProblem } from '../support/problem';
import { startServer, type RunningServer } from '../support/server';
import { waitFor } from '../support/wait';
import { parseNdjson, postStream, type StreamEvent } from './stream-reader';

// Long streamed pings (CONTRACT "Streamed results"): wider bounds than JSON, paid as they go (a token per
// started ten echoes, every echo from the target's budget), one in-flight slot, a cap on their length.
// Only 127.0.0.1 is pinged.
const test = suite('POST /api/tools/ping, streamed long');

const NDJSON = 'application/x-ndjson';
const LOOPBACK = { NETTOOLS_RESOLVERS: 'none=127.0.0.1:9', NETTOOLS_ALLOW_PRIVATE_TARGETS: 'true' };

async function withServer(env: Record<string, string>, body: (server: RunningServer) => Promise<void>): Promise<void> {
  const server = await startServer({ ...LOOPBACK, ...env });
  try {
    await body(server);
  } finally {
    await server.stop();
  }
}

async function streamed(server: RunningServer, body: Record<string, unknown>): Promise<StreamEvent[]> {
  const s = await postStream(server.base, '/api/tools/ping', body, NDJSON);
  await s.ended;
  assert.is(s.status, 200, s.text());
  return parseNdjson(s);
}

const names = (events: StreamEvent[]) => events.map((e) => e.event);

test('JSON keeps count <= 10 and intervalMs <= 1000; a stream takes up to 3600 and 60000', async () => {
  await withServer({ NETTOOLS_RATE_LIMIT: '1000/1s' }, async (server) => {
    assertProblem(await postJson(server.base, '/api/tools/ping', { host: '127.0.0.1', count: 11 }), 400, 'validation-failed');
    assertProblem(await postJson(server.base, '/api/tools/ping', { host: '127.0.0.1', intervalMs: 1001 }), 400, 'validation-failed');
    const tooMany = assertProblem(await postJson(server.base, '/api/tools/ping', { host: '127.0.0.1', count: 3601 }, { accept: NDJSON }), 400, 'validation-failed');
    assert.equal(tooMany.errors.map((e: { pointer: string }) => e.pointer), ['/count']);
    const tooSlow = assertProblem(await postJson(server.base, '/api/tools/ping', { host: '127.0.0.1', intervalMs: 60_001 }, { accept: NDJSON }), 400, 'validation-failed');
    assert.equal(tooSlow.errors.map((e: { pointer: string }) => e.pointer), ['/intervalMs']);
  });
});

test('a stream longer than NETTOOLS_STREAM_MAX_SECONDS is refused before it starts, naming the rule', async () => {
  await withServer({ NETTOOLS_RATE_LIMIT: '1000/1s', NETTOOLS_STREAM_MAX_SECONDS: '2' }, async (server) => {
    // (20 - 1) x 100 + 1000 = 2900 ms > 2 s
    const reply = await postJson(server.base, '/api/tools/ping', { host: '127.0.0.1', count: 20, intervalMs: 100 }, { accept: NDJSON });
    const problem = assertProblem(reply, 400, 'validation-failed');
    assert.match(problem.errors[0].message, /NETTOOLS_STREAM_MAX_SECONDS/);
    // (10 - 1) x 100 + 1000 = 1900 ms fits.
    const fits = await streamed(server, { host: '127.0.0.1', count: 10, intervalMs: 100 });
    assert.is(fits.at(-1)!.event, 'summary');
  });
});

test('a 25-echo stream crosses rounds of ten: every reply once, seq 0..24, spaced by the interval, one summary of statistics over all and no replies again', async () => {
  await withServer({ NETTOOLS_RATE_LIMIT: '1000/1s' }, async (server) => {
    const events = await streamed(server, { host: '127.0.0.1', count: 25, intervalMs: 100 });
    const replies = events.filter((e) => e.event === 'reply');
    assert.equal(names(events), ['start', ...replies.map(() => 'reply'), 'summary']);
    assert.equal(replies.map((e) => e.data.seq).sort((a, b) => a - b), [...Array(25).keys()]);
    // Round boundaries keep the pace: echo 10 comes about ten intervals after echo 0, not at once.
    const at = (seq: number) => replies.find((e) => e.data.seq === seq)!.at;
    assert.ok(at(10) - at(0) > 800, `echo 10 came ${at(10) - at(0)} ms after echo 0`);
    assert.ok(at(24) - at(0) > 2000, `echo 24 came ${at(24) - at(0)} ms after echo 0`);
    const summary = events.at(-1)!.data;
    assertMatchesSchema('PingStreamEvent', { event: 'summary', data: summary });
    assert.not.ok('replies' in summary, 'every reply was streamed already');
    assert.equal(summary.packets, { sent: 25, received: 25, duplicates: 0, lossPercent: 0 });
    // The streamed RTTs are rounded to microseconds, the statistics computed from the unrounded ones.
    const rtts = replies.sort((a, b) => a.data.seq - b.data.seq).map((e) => e.data.rttMs as number);
    const mean = rtts.reduce((a, b) => a + b, 0) / rtts.length;
    const jitter = rtts.slice(1).reduce((a, x, i) => a + Math.abs(x - rtts[i]!), 0) / (rtts.length - 1);
    const near = (a: number, b: number, what: string) => assert.ok(Math.abs(a - b) <= 0.002, `${what}: ${a} vs ${b}`);
    near(summary.rtt.minMs, Math.min(...rtts), 'min');
    near(summary.rtt.maxMs, Math.max(...rtts), 'max');
    near(summary.rtt.avgMs, mean, 'avg');
    near(summary.rtt.jitterMs, jitter, 'jitter');
    near(summary.rtt.stddevMs, Math.sqrt(rtts.reduce((a, x) => a + (x - mean) ** 2, 0) / rtts.length), 'mdev');
  });
});

test('a stream pays one token per started ten echoes: a 40-echo stream on a 3-token bucket ends after 30 with rate-limited', async () => {
  await withServer({ NETTOOLS_RATE_LIMIT: '3/60s' }, async (server) => {
    const sniffer = sniffEchoes();
    const { size } = sniffer;
    try {
      await sniffer.ready;
      const events = await streamed(server, { host: '127.0.0.1', count: 40, intervalMs: 100, size });
      const replies = events.filter((e) => e.event === 'reply');
      assert.is(replies.length, 30);
      const last = events.at(-1)!;
      assert.is(last.event, 'problem');
      assert.is(last.data.code, 'rate-limited');
      assert.is(last.data.status, 429);
      assert.is(await sniffer.settled(), 30, 'no echo of the unpaid round went out');
      const limits = (await request(server.base, '/api/limits')).json();
      assert.is(limits.remaining, 0);
    } finally {
      sniffer.stop();
    }
  });
});

test("every round's echoes come from the target's budget: a round the target cannot take ends the stream with target-rate-limited", async () => {
  await withServer({ NETTOOLS_RATE_LIMIT: '1000/1s', NETTOOLS_TARGET_ECHOES_PER_SECOND: '10' }, async (server) => {
    const s = await postStream(server.base, '/api/tools/ping', { host: '127.0.0.1', count: 20, intervalMs: 100 }, NDJSON);
    // The first round took the whole budget; half a second later another caller takes three of the five that
    // refilled, so at one second the stream's second round finds seven echoes where it needs ten.
    await waitFor('the sixth reply', async () => (s.text().match(/"event":"reply"/g) ?? []).length >= 6, { everyMs: 5 });
    const other = await postJson(server.base, '/api/tools/ping', { host: '127.0.0.1', count: 3, intervalMs: 100 });
    assert.is(other.status, 200, other.text);
    await s.ended;
    const events = parseNdjson(s);
    assert.is(events.filter((e) => e.event === 'reply').length, 10);
    assert.is(events.at(-1)!.event, 'problem');
    assert.is(events.at(-1)!.data.code, 'target-rate-limited');
  });
});

test('a stream holds one in-flight slot for its life', async () => {
  await withServer({ NETTOOLS_RATE_LIMIT: '1000/1s', NETTOOLS_MAX_IN_FLIGHT_PER_CLIENT: '1' }, async (server) => {
    const s = await postStream(server.base, '/api/tools/ping', { host: '127.0.0.1', count: 15, intervalMs: 100 }, NDJSON);
    await waitFor('the first reply', async () => s.text().includes('"event":"reply"'), { everyMs: 5 });
    assertProblem(await postJson(server.base, '/api/tools/ping', { host: '127.0.0.1', count: 1 }), 429, 'too-many-concurrent');
    await waitFor('a reply of the second round', async () => s.text().includes('"seq":11'), { everyMs: 5 });
    assertProblem(await postJson(server.base, '/api/tools/ping', { host: '127.0.0.1', count: 1 }), 429, 'too-many-concurrent');
    await s.ended;
    const after = await postJson(server.base, '/api/tools/ping', { host: '127.0.0.1', count: 1 });
    assert.is(after.status, 200);
  });
});

test('a client that leaves a long stream stops it: no echo of a later round goes out', async () => {
  await withServer({ NETTOOLS_RATE_LIMIT: '1000/1s' }, async (server) => {
    const sniffer = sniffEchoes();
    const { size } = sniffer;
    try {
      await sniffer.ready;
      const s = await postStream(server.base, '/api/tools/ping', { host: '127.0.0.1', count: 100, intervalMs: 100, size }, NDJSON);
      await waitFor('a reply of the second round', async () => s.text().includes('"seq":12'), { everyMs: 5 });
      s.destroy();
      await waitFor('the server to free the request', async () => server.app.inFlight() === 0, { everyMs: 5 });
      const sent = await sniffer.settled();
      await new Promise((r) => setTimeout(r, 1200)); // past the next round's start
      assert.is(await sniffer.settled(), sent);
      assert.ok(sent <= 15, `${sent} echoes went out`);
    } finally {
      sniffer.stop();
    }
  });
});

test.run();
