import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { FailoverStore, SharedStoreHealth } from '../../src/ratelimit/failover-store';
import type { BucketAnswer, LimiterStore } from '../../src/ratelimit/limiter-store';
import { MemoryLimiterStore } from '../../src/ratelimit/memory-limiter-store';

const RULE = { capacity: 10, windowMs: 1000 };
const quiet = { outage() {}, recovered() {}, fallback() {} };

// A shared store that cannot be reached: every call fails, as a Redis that is gone does.
const unreachable: LimiterStore<Promise<BucketAnswer>> = {
  take: () => Promise.reject(new Error('down')),
  spend: () => Promise.reject(new Error('down')),
  peek: () => Promise.reject(new Error('down')),
  size: 0,
  prune: () => false,
};

test('spend reaches the shared store while it answers', async () => {
  const shared = new MemoryLimiterStore({ max: 10 });
  const local = new MemoryLimiterStore({ max: 10 });
  const store = new FailoverStore(shared, local, new SharedStoreHealth('local', quiet), quiet);
  assert.is((await store.spend('r', RULE, 13, 0)).remaining, -3);
  assert.is(shared.peek('r', RULE, 0).remaining, -3);
  assert.is(local.peek('r', RULE, 0).remaining, 10);
});

test('spend falls back to the local buckets while the shared store is gone', async () => {
  const local = new MemoryLimiterStore({ max: 10 });
  const store = new FailoverStore(unreachable, local, new SharedStoreHealth('local', quiet), quiet);
  assert.is((await store.spend('r', RULE, 12, 0)).remaining, -2);
  assert.is(local.peek('r', RULE, 0).remaining, -2);
});

test.run();
