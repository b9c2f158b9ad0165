import { once } from 'node:events';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { openResolverClient, type ResolverClient } from '../../src/engines/dns';
import { sendsOf } from '../../src/engines/dns/types';
import type { ResolverConfig } from '../../src/config/types';
import { busy } from '../support/busy';

// libuv runs timers before it reads sockets: when the event loop was busy past a query's resend time
// or deadline, the answer may already be waiting unread. An answer that came in time counts.

const WORKER = path.resolve(__dirname, '..', 'support', 'delayed-dns-worker.js');
let worker: Worker;
let resolver: ResolverConfig;

test.before(async () => {
  // Its own thread and loop: it answers while this one is busy.
  worker = new Worker(WORKER);
  const [at] = (await once(worker, 'message')) as [{ address: string; port: number }];
  resolver = { id: 'delayed', address: at.address, port: at.port, family: 4 };
});

test.after(async () => {
  await worker?.terminate();
});

type Entry = Awaited<ReturnType<ResolverClient['query']>>[number]['queries']['A'];

// Starts the query in a timer callback, so that its send leaves in the prepare phase right after, and
// holds the loop from the check phase of that same turn, before the answer (sent after `name`'s delay)
// can have been read.
function askThenBusy(client: ResolverClient, name: string, timeoutMs: number, busyMs: number): Promise<Entry> {
  return new Promise((resolve) => {
    setTimeout(() => {
      const answer = client.query({ domain: name, types: ['A'], resolvers: [resolver], timeoutMs });
      setImmediate(() => busy(busyMs));
      void answer.then(([result]) => resolve(result?.queries.A));
    }, 0);
  });
}

test('an answer that arrived while the loop was busy past the resend time is taken, not resent', async () => {
  const client = openResolverClient();
  try {
    // Answered at once: the engine's resend time for this resolver drops to its 50 ms floor.
    for (let i = 0; i < 5; i++) await client.query({ domain: `warm${i}.example.test`, types: ['A'], resolvers: [resolver], timeoutMs: 2000 });
    // Answered at 150 ms, past the resend time, while the loop is busy until 1000 ms.
    const entry = await askThenBusy(client, 'd150.example.test', 2000, 1000);
    assert.ok(entry && 'rttMs' in entry, JSON.stringify(entry));
    assert.is(sendsOf(entry), 1);
  } finally {
    client.close();
  }
});

test('an answer that arrived while the loop was busy past the deadline is taken, not timed out', async () => {
  const client = openResolverClient();
  try {
    // Answered at 20 ms, within the 100 ms budget, while the loop is busy until 1000 ms.
    const entry = await askThenBusy(client, 'd20.example.test', 100, 1000);
    assert.ok(entry && 'answers' in entry, JSON.stringify(entry));
    if (entry && 'answers' in entry) assert.equal(entry.answers, [{ address: '192.0.2.9', ttl: 60 }]);
  } finally {
    client.close();
  }
});

test.run();
