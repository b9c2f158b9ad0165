import type { Machine } from '../lib/types';

// What one soak run records: a sample per second of the server process and its gauges, the faults in
// force at that moment and the requests the load made, by lane and status.

export interface Sample {
  t: number; // seconds since the load started
  rssKiB: number | null;
  fds: number | null;
  // Every gauge of /metrics whose name says in_flight, as read (the scrape that reads them is one of them).
  inFlight: Record<string, number>;
  // Event-loop delay as prom-client reports it: p99 and max since the previous scrape (its histogram has
  // a 10 ms resolution and is reset per scrape), and the lag of one setImmediate at scrape time.
  loopLagP99Ms: number | null;
  loopLagMaxMs: number | null;
  loopLagMs: number | null;
  requests: number; // requests the load completed (any status) during this second
  faults: string[]; // fault names active during this second
}

export type StatusCounts = Record<string, number>; // "200", "429", ..., "aborted" (by us), "error: <code>"

export interface SoakVerdict {
  ok: boolean;
  failures: string[];
  notes: string[];
}

export interface SoakResult {
  harnessProblems: string[]; // the soak's own parts that failed (a resolver process gone, ...)
  startedAt: string;
  finishedAt: string;
  minutes: number;
  warmupS: number;
  commit: string; // with "-dirty" when files other than the results differed from it
  machine: Machine;
  server: Record<string, string>; // the server's environment settings that matter here
  lanes: Record<string, StatusCounts>;
  totals: { requests: number; perSecond: number; status500: number };
  inFlightAtEnd: Record<string, number>;
  idleInFlight: Record<string, number>;
  trend: { rss: Trend; fds: Trend };
  verdict: SoakVerdict;
  samples: Sample[];
}

export interface Trend {
  // Least-squares fit over the samples after warm-up.
  slopePerHour: number;
  slopeLowPerHour: number; // lower end of the 95% interval of the slope
  firstThirdMedian: number;
  lastThirdMedian: number;
  tolerance: number; // growth over the window below this is not growth
  growing: boolean;
}
