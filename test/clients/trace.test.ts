// The typed client's traceroute through a real routed path of namespaces (trace-rig.ts), and its manners
// with refusals against a real server that allows no private targets (nothing is probed there).
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { NettoolsClient, NettoolsError, type TracerouteEvent, type TracerouteHop, type WaitNotice } from '../../clients/typescript/src/index';
import { assertMatchesSchema } from '../support/contract';
import { startServer, type RunningServer } from '../support/server';
import { startTraceRig, type TraceRig } from './trace-rig';

const test = suite<{ rig: TraceRig; closed: RunningServer }>('typed client traceroute through three routers');

test.before(async (ctx) => {
  ctx.rig = await startTraceRig();
  // Private targets off (the default); one token a second, so that a second request waits.
  ctx.closed = await startServer({ NETTOOLS_RATE_LIMIT: '1/1s' });
});

test.after(async (ctx) => {
  await ctx.closed?.stop();
  await ctx.rig?.stop();
});

// Each hop's answering address (its first answered probe's), or '*'.
const addresses = (hops: readonly TracerouteHop[]) => hops.map((h) => h.probes.map((p) => ('address' in p ? p.address : '*')).find((a) => a !== '*') ?? '*');

test('traceroute() answers the typed path, router by router to the destination, and the budget it read', async ({ rig }) => {
  const p = rig.path;
  const answer = await new NettoolsClient({ baseUrl: rig.base }).traceroute({ host: p.destination.v4, probesPerHop: 1, timeoutMs: 1000 });
  assert.ok(answer.ok, JSON.stringify(answer));
  if (!answer.ok) return;
  assertMatchesSchema('TracerouteResult', answer.value);
  assert.equal(addresses(answer.value.hops), [...p.routers.map((r) => r.v4), p.destination.v4]);
  assert.is(answer.value.destinationReached, true);
  assert.is(answer.status, 200);
  assert.type(answer.rateLimit.remaining, 'number');
});

test('traceroute() of an IPv6 literal traces over IPv6', async ({ rig }) => {
  const p = rig.path;
  const answer = await new NettoolsClient({ baseUrl: rig.base }).traceroute({ host: p.destination.v6, probesPerHop: 1 });
  assert.ok(answer.ok && answer.value.ipVersion === 6, JSON.stringify(answer));
  if (answer.ok) assert.equal(addresses(answer.value.hops), [...p.routers.map((r) => r.v6), p.destination.v6]);
});

test('tracerouteStream() yields start, each hop in TTL order, then a summary shaped as traceroute() answers', async ({ rig }) => {
  const events: TracerouteEvent[] = [];
  for await (const e of new NettoolsClient({ baseUrl: rig.base }).tracerouteStream({ host: rig.path.destination.v4, probesPerHop: 1 })) events.push(e);
  assert.equal(events.map((e) => e.event), ['start', 'hop', 'hop', 'hop', 'hop', 'summary']);
  const summary = events[5]!;
  assert.ok(summary.event === 'summary');
  if (summary.event !== 'summary') return;
  assertMatchesSchema('TracerouteResult', summary.data);
  assert.equal(events.slice(1, 5).map((e) => e.data), summary.data.hops);
  assert.equal(summary.data.hops.map((h) => h.ttl), [1, 2, 3, 4]);
});

test('a refused trace is a typed problem value: target-forbidden for a private target', async ({ closed, rig }) => {
  const answer = await new NettoolsClient({ baseUrl: closed.base, retry: false }).traceroute({ host: rig.path.destination.v4 });
  assert.is(answer.ok, false);
  if (answer.ok || answer.error.kind !== 'problem') return assert.unreachable(JSON.stringify(answer));
  assert.is(answer.error.status, 422);
  assert.is(answer.error.problem.code, 'target-forbidden');
});

test('a 429 before a trace is waited out as Retry-After says, then resent', async ({ closed, rig }) => {
  const notices: WaitNotice[] = [];
  const c = new NettoolsClient({ baseUrl: closed.base, onWait: (n) => notices.push(n) });
  await c.traceroute({ host: rig.path.destination.v4 }); // spends the only token (once it is there)
  notices.length = 0;
  const answer = await c.traceroute({ host: rig.path.destination.v4 });
  assert.ok(!answer.ok && answer.error.kind === 'problem' && answer.error.problem.code === 'target-forbidden', JSON.stringify(answer));
  assert.equal(answer.waits, [1]);
  assert.equal(notices.map((n) => [n.status, n.code]), [[429, 'rate-limited']]);
});

test('tracerouteStream() refused before the start throws the typed problem and yields nothing', async ({ closed, rig }) => {
  const seen: TracerouteEvent[] = [];
  const err = await (async () => {
    for await (const e of new NettoolsClient({ baseUrl: closed.base }).tracerouteStream({ host: rig.path.destination.v4 })) seen.push(e);
  })().catch((e: unknown) => e);
  assert.ok(err instanceof NettoolsError, String(err));
  assert.is((err as NettoolsError).error.kind, 'problem');
  assert.match((err as NettoolsError).message, 'target-forbidden');
  assert.equal(seen, []);
});

test.run();
