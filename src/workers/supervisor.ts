import { createServer as createNetServer } from 'node:net';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import { AggregatorRegistry } from 'prom-client';
import type { Config } from '../config/types';
import type { Logger } from '../log';
import { sharedInFlightMemory } from '../ratelimit/shared-in-flight';
import { sharedLimiterMemory } from '../ratelimit/shared-limiter-store';
import { DEFAULT_TARGET_CACHE_MAX } from '../ratelimit/target-budget';
import type { FromWorker, ToWorker, WorkerStart } from './messages';

const ENTRY = path.join(__dirname, 'worker-entry.js');

// The main thread with NETTOOLS_WORKERS above 1: it serves nothing itself. It makes the shared memory,
// starts the workers on one port, and owns what belongs to the process: signals, the keys reload, the
// whole process's /metrics and shutdown.
export interface Supervisor {
  port: number;
  info: Record<string, unknown>; // what the first worker reports it can run
  // Resolves when every worker has stopped; `unfinished` counts requests cut by the grace period.
  shutdown(graceMs: number): Promise<{ unfinished: number }>;
  reloadKeys(): Promise<Array<Extract<FromWorker, { type: 'keys-reloaded' }>>>;
  // Resolves (with the code to exit with) when a worker dies on its own.
  died: Promise<string>;
}

// A fixed port for every worker; with PORT=0 one is picked here first.
function freePort(host: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createNetServer();
    probe.once('error', reject);
    probe.listen(0, host, () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}

export async function superviseWorkers(config: Config, argv: string[], log: Logger): Promise<Supervisor> {
  const port = config.port === 0 ? await freePort(config.host) : config.port;
  const memory = {
    clients: sharedLimiterMemory(config.rateLimitCacheMax),
    targets: sharedLimiterMemory(DEFAULT_TARGET_CACHE_MAX),
    resolvers: sharedLimiterMemory(Math.max(64, 2 * config.resolvers.length)),
    inFlight: sharedInFlightMemory(config.maxInFlight),
  };
  const workers = Array.from({ length: config.workers }, (_, index) => new Worker(ENTRY, { workerData: { index, argv, port, memory } satisfies WorkerStart }));
  let stopping = false;
  const died = new Promise<string>((resolve) => {
    for (const w of workers) w.on('exit', (code) => !stopping && resolve(`a worker thread exited with ${code}`));
  });
  relayMetrics(workers, log);
  const started = await Promise.all(workers.map((w) => nextMessage(w, (m) => m.type === 'listening' || m.type === 'failed')));
  const failure = started.find((m): m is Extract<FromWorker, { type: 'failed' }> => m.type === 'failed');
  if (failure) {
    await Promise.all(workers.map((w) => w.terminate()));
    throw Object.assign(new Error(failure.message), { exitCode: failure.exitCode });
  }
  return {
    port,
    info: (started[0] as Extract<FromWorker, { type: 'listening' }>).info,
    died,
    async shutdown(graceMs) {
      stopping = true;
      const stopped = workers.map((w) => nextMessage(w, (m) => m.type === 'stopped'));
      for (const w of workers) w.postMessage({ type: 'shutdown', graceMs } satisfies ToWorker);
      const results = (await Promise.all(stopped)) as Array<Extract<FromWorker, { type: 'stopped' }>>;
      // A worker thread ends once its last keep-alive connection closes (uWS gives no way to close an
      // idle one); the process must not exit while uWS still runs in one.
      await Promise.all(workers.map((w) => new Promise((r) => (w.threadId === -1 ? r(null) : w.once('exit', r)))));
      return { unfinished: results.reduce((n, r) => n + r.unfinished, 0) };
    },
    async reloadKeys() {
      const answers = workers.map((w) => nextMessage(w, (m) => m.type === 'keys-reloaded'));
      for (const w of workers) w.postMessage({ type: 'reload-keys' } satisfies ToWorker);
      return (await Promise.all(answers)) as Array<Extract<FromWorker, { type: 'keys-reloaded' }>>;
    },
  };
}

// A worker asks for /metrics: gather every worker's registry and merge them as prom-client merges a
// cluster's (counters and per-thread gauges summed, shared gauges taken once).
function relayMetrics(workers: Worker[], log: Logger): void {
  let next = 0;
  for (const asking of workers) {
    asking.on('message', (m: FromWorker) => {
      if (m.type !== 'metrics-wanted') return;
      const id = ++next;
      const parts = workers.map((w) => nextMessage(w, (r) => r.type === 'collected' && r.id === id));
      for (const w of workers) w.postMessage({ type: 'collect', id } satisfies ToWorker);
      void Promise.all(parts)
        .then((all) => AggregatorRegistry.aggregate(all.map((r) => (r as Extract<FromWorker, { type: 'collected' }>).metrics)).metrics())
        .catch((err: Error) => {
          log.log('error', 'metrics aggregation failed', { error: err.stack });
          return '';
        })
        .then((text) => asking.postMessage({ type: 'metrics-text', id: m.id, text } satisfies ToWorker));
    });
  }
}

// Waits for the next message from a worker that matches.
function nextMessage(worker: Worker, match: (m: FromWorker) => boolean): Promise<FromWorker> {
  return new Promise((resolve) => {
    const onMessage = (m: FromWorker) => {
      if (!match(m)) return;
      worker.off('message', onMessage);
      resolve(m);
    };
    worker.on('message', onMessage);
  });
}
