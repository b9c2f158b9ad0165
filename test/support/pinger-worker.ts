// Runs in a worker thread: opens its own engine (the addon is loaded once per thread), starts a ping that
// would take seconds, and tells the parent; the parent then terminates the thread mid-ping.
import { parentPort } from 'node:worker_threads';
import { openPinger } from '../../src/engines/icmp/pinger';
import { ip } from './address';

const pinger = openPinger();
void pinger
  .ping({ address: ip('127.0.0.1'), count: 50, intervalMs: 100, timeoutMs: 1000, size: 56 })
  .catch(() => undefined);
parentPort!.postMessage({ socketKinds: pinger.socketKinds, sessions: pinger.stats().sessions });
