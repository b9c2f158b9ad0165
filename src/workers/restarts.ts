import { Registry } from 'prom-client';
import { counterReadAtScrape } from '../observability/plain-counter';
import { uncaughtErrors } from '../observability/last-resort';

// How long to wait before replacing a worker that ended: at once for the first death in a minute, then
// doubling from 250 ms up to 10 s while deaths keep coming, so a worker that dies at every start costs
// a log line every 10 s, not a spinning core.
export class RestartPacing {
  private recent: number[] = [];

  constructor(
    private readonly windowMs = 60_000,
    private readonly firstMs = 250,
    private readonly maxMs = 10_000,
  ) {}

  next(nowMs: number): number {
    this.recent = this.recent.filter((t) => nowMs - t < this.windowMs);
    this.recent.push(nowMs);
    const deaths = this.recent.length;
    return deaths <= 1 ? 0 : Math.min(this.maxMs, this.firstMs * 2 ** (deaths - 2));
  }
}

// The main thread's own series in the process's /metrics: it serves nothing, so it has a registry of
// its own that the workers' are merged with.
export function mainThreadRegistry(restarts: () => number): Registry {
  const registry = new Registry();
  counterReadAtScrape(registry, 'nettools_worker_restarts_total', 'Worker threads that ended on their own and were replaced.', [], () => [[{}, restarts()]]);
  counterReadAtScrape(registry, 'nettools_uncaught_errors_total', 'Throws and rejections no request guard caught, logged by the last-resort handler; the thread served on.', [], () => [[{}, uncaughtErrors()]]);
  return registry;
}
