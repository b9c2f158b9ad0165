import type { Registry } from 'prom-client';
import type { Config } from '../config/types';
import type { Pinger } from '../engines/icmp/types';
import type { TcpConnector } from '../engines/tcp/connector';
import type { FieldError } from '../problems/codes';
import type { LimiterStore } from '../ratelimit/limiter-store';
import type { SharedCap } from '../ratelimit/shared-cap';
import type { CancelToken } from '../util/cancel';
import type { Answer } from '../util/answer';
import type { FormatValues } from '../validation/format-values';
import type { FailureCode, Outcome, ToolFailure } from './outcome';
import type { AsnCache } from './asn-lookup';
import type { Upstream } from './upstream';

export type JsonSchema = { $id: string } & Record<string, unknown>;

// What every tool may use: the configuration, the worker's engines (one DNS engine: ping resolves host
// names with it; one ICMP engine: ping and traceroute share its socket per family), and the metrics
// registry (null when metrics are off). Engines are opened by openTools, never by a tool.
export interface ToolDeps {
  config: Config;
  dns: { upstream: Upstream } | { unavailable: string }; // the one way to the resolvers
  icmp: { pinger: Pinger } | { unavailable: string }; // the one ICMP engine of this worker
  tcp?: { connector: TcpConnector } | { unavailable: string }; // the TCP connect engine; absent: none opened
  registry: Registry | null;
  targetStore?: LimiterStore; // where per-target budgets live; in this thread by default
  traceCap?: SharedCap; // traces in flight, for the whole process; this thread's own by default
  asnCache?: AsnCache; // hop addresses' origin AS, for every tool of this worker; each tool's own by default
}

// What a streamed request hears while its tool runs. `start` comes once, when the measurement really
// starts (every refusal is decided before it: a failure after it is the measurement's own); `item` then
// comes per result as it is decided (ping `reply`, dns `answer`), each as it will stand in the result.
// `spend` takes one more token of the caller's bucket, for a measurement that pays as it goes (a long
// streamed ping), answering through `done` (util/answer.ts); null: paid, else the failure to end with.
// `toJson`: the item's own serialiser, byte for byte JSON.stringify's, for items that go out by the
// thousand (ping's replies); whoever writes JSON may use it, whoever passes the value on ignores it.
export interface ToolEvents {
  start(info: Record<string, unknown>): void;
  item<T>(event: string, data: T, toJson?: (data: T) => string): void;
  spend(done: Answer<ToolFailure | null>): void;
}

// A tool that runs. `request` has passed its schema and `normalize`; `cancel` aborts when the caller
// goes away: stop work, free sockets, resolve soon (with an `aborted` failure). `events`: see ToolEvents.
export interface ToolRunner<Req, Res> {
  run(request: Req, cancel: CancelToken, events?: ToolEvents): Promise<Outcome<Res>>;
  // The same request measured at another location (`run` hands it on): what this server's own budgets
  // take of it first (target-path.ts, Elsewhere). Absent: nothing here, the location's budgets alone.
  elsewhere?(request: Req, cancel: CancelToken, events: ToolEvents | undefined, run: (events?: ToolEvents) => Promise<Outcome<Res>>): Promise<Outcome<Res>>;
  info: Record<string, unknown>; // what it runs on, for the start-up log line
  close(): void;
}

// A tool either runs, or says plainly why this server cannot run it.
export type ToolSlot<Req, Res> = ToolRunner<Req, Res> | { unavailable: string };

// GET /probe (blackbox_exporter style): how the query's parameters become this tool's request, and
// its outcome becomes probe metrics. `module`, `target` and `timeout_ms` are common to every tool.
export interface ProbeSpec<Req, Res> {
  module: string;
  params: Readonly<Record<string, string>>; // this tool's own parameters and what they mean
  // The tool's request body from the query; `target` is given, `get` reads the tool's own parameters.
  body(target: string, get: (name: string) => string | undefined): { body: Record<string, unknown> } | { errors: FieldError[] };
  // Where an error about a request field lands among the query parameters.
  pointers: ReadonlyArray<readonly [RegExp, string]>;
  // Failures that are outcomes of the measurement (probe_success 0), not refusals.
  failuresAsMetrics: ReadonlySet<FailureCode>;
  exposition(outcome: Outcome<Res>, request: Req, seconds: number): Promise<string>;
}

// What a tool's streamed response carries besides `summary` and `problem` (for the OpenAPI document):
// the data of its `start` event, and of each per-result event by name. Plain schemas, no $id.
export interface StreamEventSchemas {
  start: Record<string, unknown>;
  items: Readonly<Record<string, Record<string, unknown>>>;
  summary?: Record<string, unknown>; // where it is not exactly the JSON 200 body
}

// A tool is one folder that exports one of these; registry.ts lists them.
export interface Tool<Req, Res> {
  name: string;
  path: string;
  summary: string;
  // Resolver ids are known only once the configuration is read.
  requestSchema(resolverIds: readonly string[]): JsonSchema;
  // A streamed request's schema, where it differs (a streamed ping may run long); requestSchema otherwise.
  streamRequestSchema?(resolverIds: readonly string[]): JsonSchema;
  resultSchema: JsonSchema;
  components: readonly JsonSchema[]; // further schemas the result refers to by $id
  failures: readonly FailureCode[]; // what `run` may fail with, for the OpenAPI document
  streamEvents?: StreamEventSchemas; // what `run` reports through ToolEvents
  // After the schema: canonical forms (IDN to ASCII, bare IP literals), from the values its formats made.
  normalize(request: Req, formats: FormatValues): Req;
  open(deps: ToolDeps): ToolSlot<Req, Res>;
  probe?: ProbeSpec<Req, Res>; // GET /probe module, for tools that have one
  // With `locations`: what every location's result says together (ping: reached from how many of how
  // many). `results` are the locations' 200 bodies; `of` counts the failed locations too.
  verdict?(results: readonly Res[], of: number): Record<string, unknown>;
  verdictSchema?: Readonly<Record<string, unknown>>; // what `verdict` returns, for the OpenAPI document
}

// A tool with a GET /probe module.
export type ProbingTool<Req = any, Res = any> = Tool<Req, Res> & { probe: ProbeSpec<Req, Res> }; // eslint-disable-line @typescript-eslint/no-explicit-any

export function hasProbe<T extends Tool<any, any>>(tool: T): tool is T & { probe: ProbeSpec<any, any> } { // eslint-disable-line @typescript-eslint/no-explicit-any
  return tool.probe !== undefined;
}

// Checks a resolved target against the operator's target policy (policy/target-policy.ts).
export type { TargetCheck } from '../policy/target-policy';
