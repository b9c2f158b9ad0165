// Engine lifetime: a thread that goes away mid-query closes its engine's sockets and timers, and the
// environment waits for libuv to finish closing them before the addon goes away with it.
import { once } from 'node:events';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { openResolverClient } from '../../src/engines/dns';
import { startSilentDns } from '../support/fault-dns';

const WORKER = path.resolve(__dirname, '..', 'support', 'resolver-worker.js');

test('a worker terminated with queries in flight shuts its engine down and the main thread keeps resolving', async () => {
  const silent = await startSilentDns();
  try {
    for (let i = 0; i < 5; i++) {
      const worker = new Worker(WORKER, { workerData: { port: silent.port } });
      const [msg] = (await once(worker, 'message')) as [{ inFlight: number }];
      assert.is(msg.inFlight, 4);
      await worker.terminate();
    }
    const client = openResolverClient();
    try {
      const resolver = { id: 'silent', address: silent.address, port: silent.port, family: 4 as const };
      const [r] = await client.query({ domain: 'example.test', types: ['A'], resolvers: [resolver], timeoutMs: 200 });
      assert.equal(r?.queries.A, { error: 'timeout' });
    } finally {
      client.close();
    }
  } finally {
    await silent.stop();
  }
});

test.run();
