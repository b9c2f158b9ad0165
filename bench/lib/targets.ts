import { cpuPerRequestUs } from './cpu';
import { formatCount, formatMicros, formatRatio, median, ratio } from './stats';
import type { BenchResults, DnsEngineRow, IcmpRow, LoadErrors, LoadPoint, ScenarioName, ServerName, TargetResult } from './types';

// The targets the issue sets, evaluated from one run's numbers. A target whose inputs are missing
// (an endpoint or engine unavailable, a run with wrong statuses) says "not evaluated" and why.

export const REFERENCE_CONNECTIONS = 64;

type Inputs = Pick<BenchResults, 'scenarios' | 'engines' | 'metricsCost'>;

// Wrong statuses and socket errors: a run with any is not read as speed (wrk timeouts are only slow).
export function brokenResponses(e: LoadErrors): number {
  return e.unexpectedStatus + e.connect + e.read + e.write;
}

type PointLookup = { ok: true; point: LoadPoint } | { ok: false; why: string };

export function pointAt(results: Inputs, scenario: ScenarioName, server: ServerName, connections: number): PointLookup {
  const s = results.scenarios.find((x) => x.scenario === scenario);
  const r = s?.servers.find((x) => x.server === server);
  if (s === undefined || r === undefined) return { ok: false, why: `${server} was not run for ${scenario}` };
  if ('unavailable' in r) return { ok: false, why: `${server} ${scenario}: ${r.unavailable}` };
  const point = r.points.find((p) => p.connections === connections);
  if (point === undefined) return { ok: false, why: `${server} ${scenario} has no run at ${connections} connections` };
  const broken = brokenResponses(point.errors);
  if (broken > 0) return { ok: false, why: `${server} ${scenario} at ${connections} connections had ${broken} bad responses or socket errors` };
  return { ok: true, point };
}

// Whether the server or something beside it (the resolvers) was the limit.
function loadNote(p: LoadPoint): string {
  let note = p.cpu === null ? '' : `; nettools ${p.cpu.busyPercent.toFixed(0)}% busy`;
  if (p.resolversBusyPercent !== null) note += `, Knot resolvers ${p.resolversBusyPercent.toFixed(0)}%`;
  return note;
}

function notEvaluated(id: string, description: string, why: string): TargetResult {
  return { id, description, status: 'not evaluated', detail: why };
}

function speedup(id: string, description: string, results: Inputs, scenario: ScenarioName, factor: number, lowerP99: boolean, load = true): TargetResult {
  const ours = pointAt(results, scenario, 'nettools', REFERENCE_CONNECTIONS);
  if (!ours.ok) return notEvaluated(id, description, ours.why);
  const base = pointAt(results, scenario, 'baseline', REFERENCE_CONNECTIONS);
  if (!base.ok) return notEvaluated(id, description, base.why);
  const r = ratio(ours.point.requestsPerSecond, base.point.requestsPerSecond) as number;
  const fast = r >= factor;
  const p99Ours = ours.point.latencyUs.p99;
  const p99Base = base.point.latencyUs.p99;
  const p99ok = !lowerP99 || p99Ours < p99Base;
  let detail = `${formatCount(ours.point.requestsPerSecond)} vs ${formatCount(base.point.requestsPerSecond)} req/s = ${formatRatio(r)} (needs ${factor}x)`;
  if (lowerP99) detail += `; p99 ${formatMicros(p99Ours)} vs ${formatMicros(p99Base)}`;
  if (load) detail += loadNote(ours.point);
  return { id, description, status: fast && p99ok ? 'met' : 'not met', detail };
}

function validationTarget(results: Inputs): TargetResult {
  const id = 'validation';
  const description = `validation error at ${REFERENCE_CONNECTIONS} connections: >= 3x baseline req/s and >= 70% of the bare uWS ceiling`;
  const vsBase = speedup(id, description, results, 'validation', 3, false, false);
  if (vsBase.status === 'not evaluated') return vsBase;
  const ours = pointAt(results, 'validation', 'nettools', REFERENCE_CONNECTIONS) as { ok: true; point: LoadPoint };
  const ceiling = pointAt(results, 'validation', 'ceiling', REFERENCE_CONNECTIONS);
  if (!ceiling.ok) return notEvaluated(id, description, ceiling.why);
  const share = ratio(ours.point.requestsPerSecond, ceiling.point.requestsPerSecond) as number;
  let detail = `${vsBase.detail}; ${(share * 100).toFixed(0)}% of the ceiling's ${formatCount(ceiling.point.requestsPerSecond)} req/s (needs 70%)`;
  if (ours.point.cpu !== null && ceiling.point.cpu !== null) {
    detail += `; server CPU ${cpuPerRequestUs(ours.point.cpu).toFixed(1)} vs the ceiling's ${cpuPerRequestUs(ceiling.point.cpu).toFixed(1)} µs per request`;
  }
  detail += loadNote(ours.point);
  return { id, description, status: vsBase.status === 'met' && share >= 0.7 ? 'met' : 'not met', detail };
}

function dnsRow(rows: DnsEngineRow[], name: DnsEngineRow['name']) {
  return rows.find((r) => r.name === name)?.result ?? { ok: false as const, unavailable: `${name} was not run` };
}

function dnsEngineTarget(results: Inputs): TargetResult {
  const id = 'dns-engine';
  const description = "native DNS engine: >= 50% of dnsperf's queries/s against the same Knot, and ahead of Node's dns.Resolver";
  const native = dnsRow(results.engines.dns, 'native');
  const dnsperf = dnsRow(results.engines.dns, 'dnsperf');
  const node = dnsRow(results.engines.dns, 'node-resolver');
  if (!native.ok) return notEvaluated(id, description, `native engine ${native.unavailable}`);
  if (!dnsperf.ok) return notEvaluated(id, description, `dnsperf ${dnsperf.unavailable}`);
  if (!node.ok) return notEvaluated(id, description, `dns.Resolver ${node.unavailable}`);
  const share = native.queriesPerSecond / dnsperf.queriesPerSecond;
  const ahead = native.queriesPerSecond > node.queriesPerSecond;
  return {
    id,
    description,
    status: share >= 0.5 && ahead ? 'met' : 'not met',
    detail: `${formatCount(native.queriesPerSecond)} q/s = ${(share * 100).toFixed(0)}% of dnsperf's ${formatCount(dnsperf.queriesPerSecond)}; dns.Resolver ${formatCount(node.queriesPerSecond)} q/s`,
  };
}

function icmpRow(rows: IcmpRow[], name: IcmpRow['name']) {
  return rows.find((r) => r.name === name)?.result ?? { ok: false as const, unavailable: `${name} was not run` };
}

function rttTarget(results: Inputs): TargetResult {
  const id = 'ping-rtt';
  const description = 'loopback ping RTT median within 20 µs of iputils ping on 127.0.0.1';
  const reference = icmpRow(results.engines.icmp, 'iputils-ping');
  if (!reference.ok || reference.rttMedianUs === null) return notEvaluated(id, description, `iputils ping ${reference.ok ? 'gave no RTT' : reference.unavailable}`);
  // What the API reports is what users see; the engine's own number stands in when the endpoint is not there.
  const endpoint = icmpRow(results.engines.icmp, 'nettools-endpoint');
  const native = icmpRow(results.engines.icmp, 'native');
  const ours = endpoint.ok && endpoint.rttMedianUs !== null ? { label: 'endpoint', r: endpoint } : native.ok && native.rttMedianUs !== null ? { label: 'native engine', r: native } : null;
  if (ours === null) {
    return notEvaluated(id, description, `endpoint ${endpoint.ok ? 'gave no RTT' : endpoint.unavailable}; native engine ${native.ok ? 'gave no RTT' : native.unavailable}`);
  }
  const diff = (ours.r.rttMedianUs as number) - reference.rttMedianUs;
  return {
    id,
    description,
    status: Math.abs(diff) <= 20 ? 'met' : 'not met',
    detail: `${ours.label} median ${(ours.r.rttMedianUs as number).toFixed(1)} µs vs iputils ${reference.rttMedianUs.toFixed(1)} µs (${diff >= 0 ? '+' : ''}${diff.toFixed(1)} µs)`,
  };
}

// Issue: "metrics add no measurable cost to a request". The two servers are compared by the medians of
// alternating short runs (see MetricsCostRuns); a gap under METRICS_NOISE is within what the medians
// of one server's runs differ by.
export const METRICS_NOISE = 0.05;

function metricsCostTarget(results: Inputs): TargetResult {
  const id = 'metrics-cost';
  const description = `metrics cost on the validation path at ${REFERENCE_CONNECTIONS} connections: within ${METRICS_NOISE * 100}% of nettools with NETTOOLS_METRICS=false`;
  // Medians of the alternating runs when the run made them; else the one point of each at the reference count.
  let on: number;
  let off: number;
  let how = '';
  const runs = results.metricsCost;
  if (runs !== undefined && runs.withMetrics.length > 0 && runs.withoutMetrics.length > 0) {
    on = median(runs.withMetrics) as number; // both lists are non-empty
    off = median(runs.withoutMetrics) as number;
    how = `median of ${runs.withMetrics.length} alternating ${runs.durationS} s runs each: `;
  } else {
    const withMetrics = pointAt(results, 'validation', 'nettools', REFERENCE_CONNECTIONS);
    if (!withMetrics.ok) return notEvaluated(id, description, withMetrics.why);
    const without = pointAt(results, 'validation', 'nettools-nometrics', REFERENCE_CONNECTIONS);
    if (!without.ok) return notEvaluated(id, description, without.why);
    on = withMetrics.point.requestsPerSecond;
    off = without.point.requestsPerSecond;
  }
  const cost = 1 - on / off;
  return {
    id,
    description,
    status: cost <= METRICS_NOISE ? 'met' : 'not met',
    detail: `${how}${formatCount(on)} req/s with metrics vs ${formatCount(off)} without (${(cost * 100).toFixed(1)}% cost)`,
  };
}

export function evaluateTargets(results: Inputs): TargetResult[] {
  return [
    validationTarget(results),
    metricsCostTarget(results),
    speedup('dns', `dns endpoint at ${REFERENCE_CONNECTIONS} connections: >= 5x baseline req/s with lower p99`, results, 'dns', 5, true),
    speedup('ping', `ping endpoint (count 1, loopback) at ${REFERENCE_CONNECTIONS} connections: >= 20x baseline req/s with lower p99`, results, 'ping', 20, true),
    dnsEngineTarget(results),
    rttTarget(results),
  ];
}
