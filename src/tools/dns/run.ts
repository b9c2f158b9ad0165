import { performance } from 'node:perf_hooks';
import type { ResolverConfig } from '../../config/types';
import type { ResolverQueries, ResolverQuery } from '../../engines/dns';
import type { CancelToken } from '../../util/cancel';
import { failed, succeeded, upstreamBusy, type FieldFault, type Outcome, type ToolFailure } from '../outcome';
import { saidBy, upstreamFailureCode, whatEachSaid } from '../resolver-verdict';
import type { ToolDeps, ToolEvents, ToolSlot } from '../tool';
import type { AskProgress, Upstream } from '../upstream';
import { clientSubnetOf } from './client-subnet';
import { anyAnswered, isConsistent, mergeRecords, outcomesOf } from './merge';
import { markValidated } from './validated';
import { watchDnsEngine, type DnsMetrics } from './metrics';
import type { DnsRequest, DnsResult, ResolverReport } from './types';

// The request names resolvers by id. The schema (built from the configured ids) refuses unknown ones
// before a request gets here; this keeps the tool safe when it is run by other code.
// Returned in configured order, whatever order the request used.
function chooseResolvers(configured: ResolverConfig[], ids: string[] | undefined): { resolvers: ResolverConfig[] } | { faults: FieldFault[] } {
  if (ids === undefined) return { resolvers: configured };
  const known = new Set(configured.map((r) => r.id));
  const faults: FieldFault[] = [];
  ids.forEach((id, i) => {
    if (!known.has(id)) faults.push({ path: ['resolvers', i], message: `unknown resolver id "${id}"` });
  });
  if (faults.length > 0) return { faults };
  const wanted = new Set(ids);
  return { resolvers: configured.filter((r) => wanted.has(r.id)) };
}

function roundMs(ms: number): number {
  return Math.round(ms * 1000) / 1000;
}

function report(results: ResolverQueries[]): ResolverReport[] {
  return results.map(({ resolver, queries }) => ({ id: resolver.id, address: resolver.address, queries }));
}

// A streamed request's start (once the budgets took its queries) and its answers as each settles: one
// resolver's answer to one type, as the result's `resolvers` will hold it.
function progress(events: ToolEvents, request: DnsRequest, chosen: ResolverConfig[]): AskProgress {
  const { domain, reverseName, types, timeoutMs } = request;
  return {
    admitted: () => events.start({ domain, ...(reverseName === undefined ? {} : { reverseName }), types, timeoutMs, resolvers: chosen.map((r) => ({ id: r.id, address: r.address })) }),
    entry: ({ resolver, type, entry }) => events.item('answer', { resolver: resolver.id, address: resolver.address, type, query: entry }),
  };
}

export async function runDns(upstream: Upstream, resolvers: ResolverConfig[], request: DnsRequest, cancel: CancelToken, events?: ToolEvents): Promise<Outcome<DnsResult>> {
  const chosen = chooseResolvers(resolvers, request.resolvers);
  if ('faults' in chosen) return failed({ code: 'invalid-field', detail: 'resolvers must name configured resolvers', fields: chosen.faults });
  const subnet = request.clientSubnet === undefined ? undefined : clientSubnetOf(request.clientSubnet);
  if (subnet !== undefined && 'fault' in subnet) return failed({ code: 'invalid-field', detail: 'clientSubnet must be a prefix no more specific than /24 (IPv4) or /56 (IPv6)', fields: [subnet.fault] });
  const started = performance.now();
  const { domain, reverseName, types, timeoutMs } = request;
  // Built, not spread: a spread of a conditional object is a runtime copy on every request.
  const query: ResolverQuery = { domain: reverseName ?? domain, types, resolvers: chosen.resolvers, timeoutMs };
  if (request.dnssec === true) query.dnssec = true;
  if (subnet !== undefined) query.clientSubnet = subnet;
  const asked = await upstream.ask(query, cancel, events && progress(events, request, chosen.resolvers));
  if (!asked.ok) return failed(upstreamBusy(asked));
  const results = asked.results;
  if (cancel.aborted) return failed({ code: 'aborted', detail: 'the caller went away before every resolver answered' });
  const durationMs = roundMs(performance.now() - started);
  const reports = report(results);
  if (!anyAnswered(results, types)) return failed(noAnswer(request, reports, durationMs));
  const records = mergeRecords(results, types);
  if (request.dnssec === true) markValidated(records, results, types);
  const consistent = isConsistent(results, types);
  const outcomes = outcomesOf(results, types);
  // reverseName, when there is one, second: the order the JSON shows.
  if (reverseName === undefined) return succeeded({ domain, records, consistent, outcomes, resolvers: reports, durationMs });
  return succeeded({ domain, reverseName, records, consistent, outcomes, resolvers: reports, durationMs });
}

// Not one query answered (NOERROR or NXDOMAIN) anywhere: an upstream failure, never an empty answer.
function noAnswer(request: DnsRequest, reports: ResolverReport[], durationMs: number): ToolFailure {
  const { domain, timeoutMs } = request;
  const entries = reports.flatMap((r) => Object.values(r.queries));
  const code = upstreamFailureCode(entries);
  if (code === 'upstream-timeout') return { code, detail: `no resolver answered any query for ${domain} within ${timeoutMs} ms`, resolvers: reports, durationMs };
  // Each resolver once, with each different thing it said: "a REFUSED, b SERVFAIL/timeout".
  const said = reports.map((r) => ({ id: r.id, said: [...new Set(Object.values(r.queries).map(saidBy))].join('/') }));
  return { code, detail: `no resolver answered any query for ${domain}: ${whatEachSaid(said)}`, resolvers: reports, durationMs };
}

export function openDns(deps: ToolDeps): ToolSlot<DnsRequest, DnsResult> {
  if (!('upstream' in deps.dns)) return { unavailable: deps.dns.unavailable };
  const { upstream } = deps.dns;
  const resolvers = deps.config.resolvers;
  const metrics: DnsMetrics | null = deps.registry === null ? null : watchDnsEngine(deps.registry, () => upstream.counters());
  return {
    run: async (request, cancel, events) => {
      const outcome = await runDns(upstream, resolvers, request, cancel, events);
      metrics?.finished(outcome);
      return outcome;
    },
    info: { resolvers: resolvers.map((r) => r.id) },
    close: () => {}, // the engine is shared with ping's host names: its owner (the registry) closes it
  };
}
