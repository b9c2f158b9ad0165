// Engine lifetime: handles are tied to the engine and closed by the environment's cleanup hook, so a
// thread that goes away mid-ping takes its sockets and timers with it without harming anyone else.
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { once } from 'node:events';
import { Worker } from 'node:worker_threads';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { SocketKinds } from '../../src/engines/icmp';
import { openPinger } from '../../src/engines/icmp/pinger';
import { waitFor } from '../support/wait';
import { ip } from '../support/address';

const WORKER = path.resolve(__dirname, '..', 'support', 'pinger-worker.js');

test('a worker terminated with a ping in flight shuts its engine down and the main thread keeps pinging', async () => {
  for (let i = 0; i < 3; i++) {
    const worker = new Worker(WORKER);
    const [msg] = (await once(worker, 'message')) as [{ socketKinds: SocketKinds; sessions: number }];
    assert.is(msg.sessions, 1);
    assert.ok(msg.socketKinds.v4 !== null);
    await worker.terminate();
  }
  const p = openPinger();
  try {
    const r = await p.ping({ address: ip('127.0.0.1'), count: 2, intervalMs: 10, timeoutMs: 1000, size: 56 });
    assert.is(r.packets.received, 2);
  } finally {
    p.close();
  }
});

test('engines in separate threads do not take each other\'s replies', async () => {
  const worker = new Worker(WORKER);
  try {
    await once(worker, 'message');
    const p = openPinger();
    try {
      const r = await p.ping({ address: ip('127.0.0.1'), count: 5, intervalMs: 20, timeoutMs: 1000, size: 56 });
      assert.equal(r.packets, { sent: 5, received: 5, duplicates: 0, lossPercent: 0 });
    } finally {
      p.close();
    }
  } finally {
    await worker.terminate();
  }
});

function openFds(): number {
  return readdirSync('/proc/self/fd').length;
}

test('closing a pinger releases its sockets', async () => {
  const before = openFds();
  for (let i = 0; i < 50; i++) openPinger().close();
  await waitFor('the closed sockets released', () => openFds() === before);
  assert.is(openFds(), before);
});

test('pingers dropped without close are closed when collected', async () => {
  setFlagsFromString('--expose-gc');
  const gc = runInNewContext('gc') as () => void;
  const before = openFds();
  for (let i = 0; i < 50; i++) openPinger();
  assert.ok(openFds() > before);
  const collected = () => {
    if (openFds() <= before) return true;
    gc();
    return false;
  };
  await waitFor('the dropped pingers collected', collected, { everyMs: 20 });
  assert.is(openFds(), before);
});

test.run();
