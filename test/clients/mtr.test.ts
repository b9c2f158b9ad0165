// The typed client's mtr() and mtrStream() against the real server on loopback (one hop: the target).
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { NettoolsClient, type MtrEvent } from '../../clients/typescript/src/index';
import { assertMatchesSchema } from '../support/contract';
import { startServer, type RunningServer } from '../support/server';

const test = suite<{ server: RunningServer }>('typed client mtr on loopback');

test.before(async (ctx) => {
  ctx.server = await startServer({ NETTOOLS_RESOLVERS: 'none=127.0.0.1:9', NETTOOLS_ALLOW_PRIVATE_TARGETS: 'true', NETTOOLS_RATE_LIMIT: '1000/1s', NETTOOLS_TARGET_TRACES_PER_MINUTE: '1000' });
});

test.after(async (ctx) => {
  await ctx.server?.stop();
});

test('mtr() answers the typed rows: one hop, every probe answered', async ({ server }) => {
  const answer = await new NettoolsClient({ baseUrl: server.base }).mtr({ host: '127.0.0.1', cycles: 2, intervalMs: 200 });
  assert.ok(answer.ok, JSON.stringify(answer));
  if (!answer.ok) return;
  assertMatchesSchema('MtrResult', answer.value);
  assert.equal(answer.value.hops.map((h) => [h.ttl, h.sent, h.received, h.addresses]), [[1, 2, 2, [{ address: '127.0.0.1', count: 2 }]]]);
});

test('mtrStream() yields start, a cycle per cycle, then a summary shaped as mtr() answers', async ({ server }) => {
  const events: MtrEvent[] = [];
  for await (const e of new NettoolsClient({ baseUrl: server.base }).mtrStream({ host: '127.0.0.1', cycles: 12, intervalMs: 200, timeoutMs: 100 })) events.push(e);
  assert.equal(events.map((e) => e.event), ['start', ...Array<string>(12).fill('cycle'), 'summary']);
  const summary = events.at(-1)!;
  if (summary.event !== 'summary') return assert.unreachable(summary.event);
  assertMatchesSchema('MtrResult', summary.data);
  assert.is(summary.data.hops[0]!.sent, 12);
});

test('a refused mtr is a typed problem value: validation-failed at /cycles for 11 cycles in JSON', async ({ server }) => {
  const answer = await new NettoolsClient({ baseUrl: server.base, retry: false }).mtr({ host: '127.0.0.1', cycles: 11 });
  if (answer.ok || answer.error.kind !== 'problem') return assert.unreachable(JSON.stringify(answer));
  assert.equal([answer.error.status, answer.error.problem.code], [400, 'validation-failed']);
  assert.equal(answer.error.problem.errors?.map((e) => e.pointer), ['/cycles']);
});

test.run();
