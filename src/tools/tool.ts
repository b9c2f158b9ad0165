import type { Config } from '../config/types';
import type { ProblemCode } from '../http/problems';
import type { EngineCounters } from '../engines/dns';
import type { FamilyStats } from '../engines/icmp/types';
import type { DnsRequest, PingRequest } from '../schemas/requests';

// What a tool hands back to the HTTP layer: a 200 body, or a problem by code.
export type ToolResult =
  | { kind: 'ok'; body: object }
  | { kind: 'problem'; code: ProblemCode; detail: string; extensions?: Record<string, unknown>; retryAfterSeconds?: number };

// `request` is already validated, defaulted and normalised by the HTTP layer.
// `signal` aborts when the client goes away: stop work, free sockets, resolve soon.
export type ToolHandler<Request> = (request: Request, signal: AbortSignal) => Promise<ToolResult>;

// A tool either runs, or says plainly why this server cannot run it (answered as 503 engine-unavailable).
export type ToolSlot<Request> =
  | { handler: ToolHandler<Request>; info: Record<string, unknown>; close(): void }
  | { unavailable: string };

export interface ToolSet {
  ping: ToolSlot<PingRequest>;
  dns: ToolSlot<DnsRequest>;
  close(): void;
}

// Checks a resolved ping target against the operator's target policy; returns the refused range's name.
export type TargetCheck = (address: string) => string | null;

export interface ToolDeps {
  config: Config;
  checkTarget: TargetCheck;
  metrics?: ToolMetrics;
}

// What the tools report after each request, and the engine counters read at scrape time
// (implemented by observability/tool-metrics).
export interface ToolMetrics {
  pingFinished(result: ToolResult): void;
  dnsFinished(result: ToolResult): void;
  watchPinger(read: () => { v4: FamilyStats; v6: FamilyStats }): void;
  watchDnsEngine(read: () => EngineCounters): void;
}
