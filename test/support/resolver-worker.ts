// Runs in a worker thread: opens its own DNS engine (the addon is loaded once per thread), asks a resolver
// that never answers for every type, and tells the parent; the parent then terminates the thread mid-query.
import { parentPort, workerData } from 'node:worker_threads';
import { openResolverClient } from '../../src/engines/dns';

const { port } = workerData as { port: number };
const client = openResolverClient();
void client.query({
  domain: 'example.test',
  types: ['A', 'AAAA', 'MX', 'TXT'],
  resolvers: [{ id: 'silent', address: '127.0.0.1', port, family: 4 }],
  timeoutMs: 5000,
});
parentPort!.postMessage({ inFlight: client.counters().inFlight });
