import { test } from 'uvu';
import * as assert from 'uvu/assert';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import { SharedInFlight, sharedInFlightMemory } from '../../src/ratelimit/shared-in-flight';

const MODULE = path.resolve(__dirname, '..', '..', 'src', 'ratelimit', 'shared-in-flight.js');

test('per-client and global caps, and releases, as the in-process caps behave', () => {
  const caps = new SharedInFlight(sharedInFlightMemory(3), 2, 3);
  assert.is(caps.acquire('a'), null);
  assert.is(caps.acquire('a'), null);
  assert.equal(caps.acquire('a'), { code: 'too-many-concurrent', limit: 2 });
  assert.is(caps.acquire('b'), null);
  assert.equal(caps.acquire('c'), { code: 'overloaded', limit: 3, retryAfterSeconds: 1 });
  assert.equal([caps.total, caps.clients], [3, 2]);
  caps.release('a');
  caps.release('a');
  caps.release('a'); // holds nothing any more: frees nothing
  assert.equal([caps.total, caps.clients], [1, 1]);
  assert.is(caps.acquire('c', 1), null);
  assert.equal(caps.acquire('c', 1), { code: 'too-many-concurrent', limit: 1 });
});

test('threads racing for the last global slots never pass the cap, and releases bring it back to zero', async () => {
  const memory = sharedInFlightMemory(100);
  const source = `
    const { parentPort, workerData } = require('node:worker_threads');
    const { SharedInFlight } = require(${JSON.stringify(MODULE)});
    const caps = new SharedInFlight(workerData.memory, 1000, 100);
    const held = [];
    let max = 0;
    for (let i = 0; i < 20000; i++) {
      const key = 'c' + ((workerData.id * 7 + i) % 50);
      if (held.length < 40 && caps.acquire(key) === null) held.push(key);
      else if (held.length > 0) caps.release(held.shift());
      max = Math.max(max, caps.total);
    }
    for (const key of held) caps.release(key);
    parentPort.postMessage(max);`;
  const maxima = await Promise.all(
    Array.from({ length: 4 }, (_, id) => new Promise<number>((resolve, reject) => {
      const w = new Worker(source, { eval: true, workerData: { memory, id } });
      w.once('message', resolve);
      w.once('error', reject);
    })),
  );
  const caps = new SharedInFlight(memory, 1000, 100);
  assert.ok(maxima.every((m) => m <= 100), String(maxima));
  assert.equal([caps.total, caps.clients], [0, 0]);
});

test.run();
