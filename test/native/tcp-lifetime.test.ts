// The TCP engine's lifetime: its handles close with the environment (a worker thread terminated
// mid-attempt takes its socket along and harms no one else), and every attempt's socket is released.
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { once } from 'node:events';
import { Worker } from 'node:worker_threads';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { openTcpConnector, type ConnectAttempt } from '../../src/engines/tcp/connector';
import { parseAddress } from '../../src/net/address';
import { netnsTracker } from '../support/netns';
import { freeTcpPort } from '../support/ports';
import { waitFor } from '../support/wait';

const test = suite('TcpEngine lifetime');
const spaces = netnsTracker();
const WORKER = path.resolve(__dirname, '..', 'support', 'tcp-connector-worker.js');
const LOOPBACK = parseAddress('127.0.0.1')!;

test.after(() => spaces.dropAll());

const openFds = () => readdirSync('/proc/self/fd').length;

test('a worker terminated with an attempt in flight ends it, and this thread keeps connecting', async () => {
  const ns = spaces.netns();
  ns.exec(['iptables', '-A', 'INPUT', '-p', 'tcp', '--dport', '9', '--syn', '-j', 'DROP']);
  for (let i = 0; i < 3; i++) {
    const worker = new Worker(WORKER, { workerData: { address: ns.nsV4 } });
    const [msg] = (await once(worker, 'message')) as [{ inFlight: number }];
    assert.is(msg.inFlight, 1);
    await worker.terminate();
  }
  const connector = openTcpConnector();
  try {
    const port = await freeTcpPort('127.0.0.1');
    const a = await new Promise<ConnectAttempt>((resolve) => connector.connect(LOOPBACK, port, 1000, resolve));
    assert.is(a.outcome, 'refused');
  } finally {
    connector.close();
  }
});

test('every attempt releases its socket, whether it ended, was cancelled, or its engine closed', async () => {
  const before = openFds();
  const port = await freeTcpPort('127.0.0.1');
  const connector = openTcpConnector();
  await Promise.all(Array.from({ length: 20 }, () => new Promise((resolve) => connector.connect(LOOPBACK, port, 1000, resolve))));
  for (let i = 0; i < 20; i++) connector.connect(LOOPBACK, port, 1000, () => undefined)();
  for (let i = 0; i < 20; i++) connector.connect(LOOPBACK, port, 1000, () => undefined);
  connector.close();
  await waitFor('the sockets released', () => openFds() === before);
  assert.is(openFds(), before);
});

test.run();
