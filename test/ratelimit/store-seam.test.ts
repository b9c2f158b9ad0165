import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { AnswerCallback, LimiterStore } from '../../src/ratelimit/limiter-store';
import { MemoryLimiterStore } from '../../src/ratelimit/memory-limiter-store';
import type { BucketParams } from '../../src/ratelimit/token-bucket';
import { postJson, request } from '../support/http';
import { assertProblem } from '../support/problem';
import { startServer, type RunningServer } from '../support/server';

// A store that answers later, as one across the network does: the buckets of a MemoryLimiterStore,
// each answer handed over on a later turn of the event loop. Counts its calls.
class LaterStore implements LimiterStore {
  readonly inner = new MemoryLimiterStore({ max: 1000 });
  takes = 0;
  take(key: string, rule: BucketParams, cost: number, nowMs: number, done: AnswerCallback): void {
    this.takes++;
    this.inner.take(key, rule, cost, nowMs, (answer) => setTimeout(() => done(answer), 5));
  }
  spend(key: string, rule: BucketParams, cost: number, nowMs: number, done: AnswerCallback): void {
    this.inner.spend(key, rule, cost, nowMs, (answer) => setTimeout(() => done(answer), 5));
  }
  peek(key: string, rule: BucketParams, nowMs: number, done: AnswerCallback): void {
    this.inner.peek(key, rule, nowMs, (answer) => setTimeout(() => done(answer), 5));
  }
  get size(): number {
    return this.inner.size;
  }
  prune(): boolean {
    return this.inner.prune();
  }
}

const test = suite<{ server: RunningServer; store: LaterStore }>('a limiter store that answers later');

test.before(async (ctx) => {
  ctx.store = new LaterStore();
  ctx.server = await startServer({ NETTOOLS_RATE_LIMIT: '3/60s' }, undefined, { store: ctx.store });
});

test.after(async (ctx) => {
  await ctx.server?.stop();
});

test('a body refused by its headers is answered once the store has decided', async ({ server }) => {
  const reply = await request(server.base, '/api/tools/dns', { method: 'POST', headers: { 'content-type': 'text/plain' }, body: 'x' });
  assertProblem(reply, 415, 'unsupported-media-type');
  assert.is(reply.headers['x-ratelimit-remaining'], '2');
});

test('requests are admitted through it, bodies still read and checked, and the bucket is spent there', async ({ server, store }) => {
  for (const remaining of ['1', '0']) {
    const reply = await postJson(server.base, '/api/tools/ping', { host: 'a b' });
    assertProblem(reply, 400, 'validation-failed');
    assert.is(reply.headers['x-ratelimit-remaining'], remaining);
  }
  const refused = assertProblem(await postJson(server.base, '/api/tools/ping', { host: 'a b' }), 429, 'rate-limited');
  assert.match(refused.detail, '3 requests per 60 s');
  assert.is(store.takes, 4);
  assert.is(store.size, 1);
});

test('/probe is admitted through it too', async ({ server }) => {
  const reply = await request(server.base, '/probe?module=icmp');
  assertProblem(reply, 429, 'rate-limited');
  assert.ok(reply.headers['retry-after']);
});

test.run();
