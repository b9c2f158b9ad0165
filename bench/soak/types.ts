import type { Machine } from '../lib/types';

// What one soak run records: a sample per second of the server process and its gauges, the faults in
// force at that moment and the requests the load made, by lane and status.

export interface Sample {
  t: number; // seconds since the load started
  rssKiB: number | null;
  fds: number | null;
  // The V8 heap as prom-client reports it at the scrape: what it holds from the OS (resized by V8's own
  // rules, RSS following it up and down), what is in use, memory outside it (Buffers, the addon's
  // external allocations), the young generation's size (4 to 32 MiB under this load, the largest of
  // those moves) and the old generation's use (it falls only when a major collection runs).
  heapTotalKiB: number | null;
  heapUsedKiB: number | null;
  externalKiB: number | null;
  youngGenerationKiB: number | null;
  oldGenerationUsedKiB: number | null;
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
  trend: { rss: Trend; rssOutsideHeap: Trend; oldAfterCollections: AfterCollections; fds: Trend };
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
  // The same fit over the later half of that window, which decides: a step that settled before it is
  // flat there, growth is not.
  lateFromS: number;
  lateSlopePerHour: number;
  lateSlopeLowPerHour: number;
  growing: boolean;
}

// The old generation's use at the bottom of each fall (each major collection) after warm-up: the live
// JavaScript objects, free of the sawtooth between collections.
export interface AfterCollections {
  collections: number;
  firstThirdMedian: number;
  lastThirdMedian: number;
  tolerance: number;
  growing: boolean; // the last third's median above the first third's by more than the tolerance
}
