import path from 'node:path';
import { Worker } from 'node:worker_threads';
import { AggregatorRegistry, type MetricObjectWithValues, type MetricValue } from 'prom-client';
import type { Config } from '../config/types';
import { claimPort } from '../http/port-owner';
import type { Logger } from '../log';
import { SharedCap, sharedCapMemory } from '../ratelimit/shared-cap';
import { SharedInFlight, sharedInFlightMemory } from '../ratelimit/shared-in-flight';
import { SharedSlots } from '../ratelimit/shared-slots';
import { sharedLimiterMemory } from '../ratelimit/shared-limiter-store';
import { DEFAULT_TARGET_CACHE_MAX } from '../ratelimit/target-budget';
import type { FromWorker, ToWorker, WorkerStart } from './messages';
import { mainThreadRegistry, RestartPacing } from './restarts';

const ENTRY = path.join(__dirname, 'worker-entry.js');

// The main thread with NETTOOLS_WORKERS above 1: it serves nothing itself. It makes the shared memory,
// starts the workers on one port, and owns what belongs to the process: signals, the keys reload, the
// whole process's /metrics and shutdown. A worker that ends on its own is replaced: the process serves on.
export interface Supervisor {
  port: number;
  info: Record<string, unknown>; // what the first worker reports it can run
  // Resolves when every worker has stopped; `unfinished` counts requests cut by the grace period.
  shutdown(graceMs: number): Promise<{ unfinished: number }>;
  reloadKeys(): Promise<Array<Extract<FromWorker, { type: 'keys-reloaded' }>>>;
  threads(): ReadonlyArray<Worker | null>; // by index; null while a replacement is being started
  restarts(): number; // workers replaced since start
}

type Memory = WorkerStart['memory'];

export async function superviseWorkers(config: Config, argv: string[], log: Logger): Promise<Supervisor> {
  // A fixed port for every worker, seen free first; with PORT=0 one is picked here.
  const port = claimPort(config.host, config.port);
  const memory: Memory = {
    clients: sharedLimiterMemory(config.rateLimitCacheMax),
    targets: sharedLimiterMemory(DEFAULT_TARGET_CACHE_MAX),
    resolvers: sharedLimiterMemory(Math.max(64, 2 * config.resolvers.length)),
    inFlight: sharedInFlightMemory(config.maxInFlight, config.workers),
    traces: sharedCapMemory(config.workers),
    agents: sharedCapMemory(config.workers),
  };
  const workers: Array<Worker | null> = [];
  let stopping = false;
  let restarts = 0;
  const own = mainThreadRegistry(() => restarts);
  const spawn = (index: number): Worker => {
    const w = new Worker(ENTRY, { workerData: { index, argv, port, memory } satisfies WorkerStart });
    relayMetrics(w, () => workers, () => own.getMetricsAsJSON(), log);
    return (workers[index] = w);
  };
  for (let i = 0; i < config.workers; i++) spawn(i);
  const started = await Promise.all(
    workers.map(async (w) => (await nextMessage(w as Worker, (m) => m.type === 'listening' || m.type === 'failed', true)) ?? ({ type: 'failed', message: 'a worker thread ended while starting', exitCode: 1 } as const)),
  );
  const failure = started.find((m): m is Extract<FromWorker, { type: 'failed' }> => m.type === 'failed');
  if (failure) {
    await Promise.all(workers.map((w) => w?.terminate()));
    throw Object.assign(new Error(failure.message), { exitCode: failure.exitCode });
  }
  const replacer = new Replacer(config, memory, log, spawn, () => stopping, () => restarts++);
  for (let i = 0; i < config.workers; i++) replacer.watch(i, workers[i] as Worker, workers);
  const live = () => workers.filter((w): w is Worker => w !== null && w.threadId !== -1);
  return {
    port,
    info: (started[0] as Extract<FromWorker, { type: 'listening' }>).info,
    threads: () => workers,
    restarts: () => restarts,
    async shutdown(graceMs) {
      stopping = true;
      replacer.stop();
      const serving = live();
      const stopped = serving.map((w) => nextMessage(w, (m) => m.type === 'stopped', true));
      for (const w of serving) w.postMessage({ type: 'shutdown', graceMs } satisfies ToWorker);
      const results = (await Promise.all(stopped)).filter((r): r is Extract<FromWorker, { type: 'stopped' }> => r !== null);
      // A worker thread ends once its last keep-alive connection closes (uWS gives no way to close an
      // idle one); the process must not exit while uWS still runs in one.
      await Promise.all(serving.map((w) => new Promise((r) => (w.threadId === -1 ? r(null) : w.once('exit', r)))));
      return { unfinished: results.reduce((n, r) => n + r.unfinished, 0) };
    },
    async reloadKeys() {
      const serving = live();
      const answers = serving.map((w) => nextMessage(w, (m) => m.type === 'keys-reloaded', true));
      for (const w of serving) w.postMessage({ type: 'reload-keys' } satisfies ToWorker);
      return (await Promise.all(answers)).filter((a): a is Extract<FromWorker, { type: 'keys-reloaded' }> => a !== null);
    },
  };
}

// Replaces a worker that ends while the process is not stopping. Before the new one starts, what the
// dead one held is given back: the locks it may have died holding, and its requests' in-flight slots.
// Replacements of a worker that keeps dying are spaced out (restarts.ts), so a crash loop cannot spin.
class Replacer {
  private readonly pacing = new RestartPacing();
  private readonly timers = new Set<NodeJS.Timeout>();
  private readonly ledger: SharedInFlight;
  private readonly traces: SharedCap;
  private readonly agents: SharedCap;

  constructor(
    config: Config,
    private readonly memory: Memory,
    private readonly log: Logger,
    private readonly spawn: (index: number) => Worker,
    private readonly stopping: () => boolean,
    private readonly counted: () => void,
  ) {
    // The main thread touches the in-flight table only to forget a dead worker; its lock id follows theirs.
    this.ledger = new SharedInFlight(memory.inFlight, config.maxInFlightPerClient, config.maxInFlight, 1, config.workers);
    this.traces = new SharedCap(memory.traces, config.maxTracesInFlight, config.workers);
    this.agents = new SharedCap(memory.agents, config.maxAgents, config.workers);
  }

  watch(index: number, worker: Worker, workers: Array<Worker | null>): void {
    worker.once('exit', (code) => {
      if (this.stopping()) return;
      workers[index] = null;
      this.counted();
      const freed = this.release(index);
      const delayMs = this.pacing.next(performance.now());
      this.log.log('error', 'a worker thread ended; starting another', { worker: index, exitCode: code, freedInFlight: freed, restartInMs: delayMs });
      const timer = setTimeout(() => {
        this.timers.delete(timer);
        if (this.stopping()) return;
        const replacement = this.spawn(index);
        this.watch(index, replacement, workers);
        void nextMessage(replacement, (m) => m.type === 'listening' || m.type === 'failed', true).then((m) => {
          if (m?.type === 'failed') this.log.log('error', 'a replacement worker thread failed to start', { worker: index, error: m.message });
        });
      }, delayMs);
      this.timers.add(timer);
    });
  }

  private release(index: number): number {
    const { clients, targets, resolvers, inFlight } = this.memory;
    for (const table of [clients.slots, targets.slots, resolvers.slots, inFlight.slots]) SharedSlots.breakLocks(table, index + 1);
    this.traces.forgetWorker(index);
    this.agents.forgetWorker(index);
    return this.ledger.forgetWorker(index);
  }

  stop(): void {
    for (const timer of this.timers) clearTimeout(timer);
    this.timers.clear();
  }
}

// A worker asks for /metrics: gather every worker's registry and merge them as prom-client merges a
// cluster's (counters and per-thread gauges summed, shared gauges taken once), with the main thread's own.
// One sequence of collection ids for every asking worker: two gatherings at once must not share an id,
// or both would take the same worker's first answer.
let nextCollection = 0;

function relayMetrics(asking: Worker, workers: () => ReadonlyArray<Worker | null>, own: () => Promise<MetricObjectWithValues<MetricValue<string>>[]>, log: Logger): void {
  asking.on('message', (m: FromWorker) => {
    if (m.type !== 'metrics-wanted') return;
    const id = ++nextCollection;
    const serving = workers().filter((w): w is Worker => w !== null && w.threadId !== -1);
    const parts = serving.map((w) => nextMessage(w, (r) => r.type === 'collected' && r.id === id, true));
    for (const w of serving) w.postMessage({ type: 'collect', id } satisfies ToWorker);
    void Promise.all([Promise.all(parts), own()])
      .then(([all, mine]) => {
        const collected = all.filter((r): r is Extract<FromWorker, { type: 'collected' }> => r !== null).map((r) => r.metrics);
        return AggregatorRegistry.aggregate([...collected, mine]).metrics();
      })
      .catch((err: Error) => {
        log.log('error', 'metrics aggregation failed', { error: err.stack });
        return '';
      })
      .then((text) => asking.postMessage({ type: 'metrics-text', id: m.id, text } satisfies ToWorker));
  });
}

// Waits for the next message from a worker that matches; with `orExit`, null if the worker ends first.
function nextMessage(worker: Worker, match: (m: FromWorker) => boolean, orExit: true): Promise<FromWorker | null>;
function nextMessage(worker: Worker, match: (m: FromWorker) => boolean, orExit?: false): Promise<FromWorker>;
function nextMessage(worker: Worker, match: (m: FromWorker) => boolean, orExit = false): Promise<FromWorker | null> {
  return new Promise((resolve) => {
    const done = (m: FromWorker | null) => {
      worker.off('message', onMessage);
      worker.off('exit', onExit);
      resolve(m);
    };
    const onMessage = (m: FromWorker) => match(m) && done(m);
    const onExit = () => done(null);
    worker.on('message', onMessage);
    if (orExit) worker.on('exit', onExit);
  });
}
