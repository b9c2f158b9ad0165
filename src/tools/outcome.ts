import type { ResolverReport } from './dns/types';
import type { UpstreamFailureCode } from './resolver-verdict';

// What a tool hands back: its typed result, or a failure in the tool's own terms. Nothing here knows
// HTTP: the HTTP layer alone turns a failure into a status, headers and a problem body.
export type Outcome<R> = { ok: true; value: R } | { ok: false; failure: ToolFailure };

// A request field the tool refuses beyond what the schema could know (a limit of this server).
// `path` is the member names and indexes leading to it.
export interface FieldFault {
  path: ReadonlyArray<string | number>;
  message: string;
}

// `detail` is one sentence for the caller, in the tool's words.
export type ToolFailure =
  // The resolvers answered: the name does not exist (nxdomain), or has no address of the wanted family (no-data).
  | { code: 'host-not-found'; detail: string; dns: 'nxdomain' | 'no-data' }
  // After a redirect (the http check): the redirect's URL, and the redirects followed before it.
  | { code: 'target-forbidden'; detail: string; address: string; range: string; url?: string; redirects?: readonly unknown[] }
  | { code: 'target-rate-limited'; detail: string; retryAfterSeconds: number }
  | { code: 'invalid-field'; detail: string; fields: FieldFault[] }
  | { code: 'engine-unavailable'; detail: string }
  | { code: 'engine-busy'; detail: string; retryAfterSeconds: number }
  // No resolver answered (NOERROR or NXDOMAIN) anything: dns, with every query's report...
  | { code: UpstreamFailureCode; detail: string; resolvers: ResolverReport[]; durationMs: number }
  // ...or a host name of ping or traceroute, with what each resolver said to the last type asked.
  | { code: UpstreamFailureCode; detail: string; resolvers: HostResolverReport[] }
  // A resolver's query budget (NETTOOLS_RESOLVER_QPS) cannot take this request's queries: nothing was sent.
  | { code: 'upstream-busy'; detail: string; retryAfterSeconds: number }
  // The shared store holding the per-target budget is unreachable and the operator chose to refuse.
  | { code: 'store-unavailable'; detail: string; retryAfterSeconds: number }
  // A streamed measurement that pays as it goes found the caller's bucket empty: it ended there.
  | { code: 'caller-rate-limited'; detail: string; retryAfterSeconds: number }
  // The server is stopping: a measurement still running (a stream) ends with this.
  | { code: 'shutting-down'; detail: string }
  // A location asked to measure (an agent) went away or was cut off before its answer was whole.
  | { code: 'location-offline'; detail: string }
  // The caller went away; nobody reads the answer, but metrics count it apart from faults.
  | { code: 'aborted'; detail: string }
  | { code: 'internal-error'; detail: string };

export type FailureCode = ToolFailure['code'];

// One resolver asked for a host's address, and what it said: an rcode, or the error in place of an answer.
export interface HostResolverReport {
  id: string;
  address: string;
  rcode?: string;
  error?: string;
}

export function failed<F extends ToolFailure>(failure: F): { ok: false; failure: F } {
  return { ok: false, failure };
}

export function upstreamBusy(busy: { resolver: string; retryAfterSeconds: number }): ToolFailure {
  return { code: 'upstream-busy', detail: `resolver ${busy.resolver} has no query budget left this second; retry after ${busy.retryAfterSeconds} s`, retryAfterSeconds: busy.retryAfterSeconds };
}

export function succeeded<R>(value: R): { ok: true; value: R } {
  return { ok: true, value };
}
