// Shapes of one benchmark run, as written to bench/results/*.json. Plain data only.

import type { CpuUse } from './cpu';

// nettools-nometrics: nettools with NETTOOLS_METRICS=false, to measure what metrics cost a request.
// nettools-keyed: nettools with 1,000 API keys loaded, every request carrying one, to measure the key path.
// nettools-workers2: nettools with NETTOOLS_WORKERS=2.
// nettools-redis: nettools keeping its budgets in a private Redis (NETTOOLS_REDIS_URL).
// ceiling: bare uWS with a minimal head; ceiling-identical: bare uWS writing nettools' exact response.
// nettools-node24: the same code on Node 24, in the Debian 13 root of .ci/debian13.sh (bench/node-lines.ts).
// nettools-other: another revision of nettools beside the base one (bench/revisions.ts).
export type ServerName = 'nettools' | 'nettools-nometrics' | 'nettools-keyed' | 'nettools-workers2' | 'nettools-redis' | 'nettools-node24' | 'nettools-other' | 'baseline' | 'ceiling' | 'ceiling-identical';
export type ScenarioName = 'validation' | 'dns' | 'dns-hot' | 'ping';

export interface LatencyUs {
  p50: number;
  p90: number;
  p99: number;
  p999: number;
  min: number;
  mean: number;
  max: number;
}

export interface LoadErrors {
  connect: number;
  read: number;
  write: number;
  timeout: number;
  // Responses whose status was not the one the scenario expects (counted from wrk's non-2xx/3xx total).
  unexpectedStatus: number;
}

export interface LoadPoint {
  connections: number;
  durationS: number;
  requests: number;
  requestsPerSecond: number;
  latencyUs: LatencyUs;
  errors: LoadErrors;
  // Peak resident set of the server process during this run (VmHWM after a reset), KiB; null when unknown.
  peakRssKiB: number | null;
  // The server's CPU during this run (its reaped children included); null when /proc could not be read.
  cpu: CpuUse | null;
  // dns scenario: how busy the Knot resolvers were together, in percent of one core; null elsewhere.
  resolversBusyPercent: number | null;
}

// A server either was measured, or says why not (never a made-up number).
export type ServerScenarioResult = { server: ServerName; points: LoadPoint[] } | { server: ServerName; unavailable: string };

export interface ScenarioResult {
  scenario: ScenarioName;
  description: string;
  body: string;
  expectedStatus: number;
  servers: ServerScenarioResult[];
}

export type Measured<T> = ({ ok: true } & T) | { ok: false; unavailable: string };

export interface DnsEngineRow {
  name: 'native' | 'dnsperf' | 'node-resolver';
  runs?: number; // the result is the median of this many runs (one when absent)
  // Queries/s of each run in round order, when the engine and dnsperf took turns: round i of one pairs
  // with round i of the other, so a target can take the ratio within each round.
  roundQps?: number[];
  result: Measured<{ queriesPerSecond: number; completed: number; failed: number; inFlight: number; durationS: number }>;
}

export interface IcmpRow {
  name: 'native' | 'nettools-endpoint' | 'iputils-ping' | 'iputils-ping-flood' | 'fping';
  result: Measured<{ echoesPerSecond: number | null; rttMedianUs: number | null; samples: number }>;
}

export interface Machine {
  cpuModel: string;
  cores: number;
  memoryMiB: number;
  kernel: string;
  node: string;
  // 1-minute load average just before the run: other work on the machine skews every number.
  loadAverage1m: number;
}

export interface TargetResult {
  id: string;
  description: string;
  status: 'met' | 'not met' | 'not evaluated';
  detail: string;
}

// One short run of a pair: what wrk saw and what the server spent. cpuUsPerRequest is the server
// process's user + system CPU over the requests answered (LoadPoint.cpu); null when /proc could not be read.
export interface PairRun {
  requestsPerSecond: number;
  cpuUsPerRequest: number | null;
}

// Two servers in alternating short runs of one scenario at the reference connection count: two servers
// measured once each, back to back, differed by up to 10% on the shared VM whichever was measured first.
export interface PairRuns {
  scenario: ScenarioName;
  first: ServerName; // plain nettools
  second: ServerName; // nettools configured differently
  connections: number;
  durationS: number;
  // In the order measured: first[0], second[0], first[1], second[1], ...
  firstRuns: PairRun[];
  secondRuns: PairRun[];
}

// A pair either was measured, or says why not (a server unavailable, a run with bad responses).
export type PairResult = PairRuns | { scenario: ScenarioName; first: ServerName; second: ServerName; unavailable: string };

export interface BenchResults {
  startedAt: string;
  finishedAt: string;
  mode: 'quick' | 'full';
  commit: string;
  dirty: boolean;
  machine: Machine;
  settings: { connections: number[]; durationS: number; wrkThreads: number; resolvers: string[] };
  scenarios: ScenarioResult[];
  engines: { dns: DnsEngineRow[]; icmp: IcmpRow[] };
  // The alternating pairs the cost targets read (PAIRS in scenarios.ts): metrics, API key, Redis.
  pairs: PairResult[];
  targets: TargetResult[];
}
