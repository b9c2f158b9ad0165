// mtr through a real routed path of network namespaces (test/support/trace-path.ts): three Linux routers
// between the source, where the server runs (test/traceroute/path-child.ts), and the destination. Only
// addresses inside the path are ever probed.
import { execFileSync } from 'node:child_process';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { MtrHop, MtrResult } from '../../src/tools/mtr/types';
import { assertMatchesSchema } from '../support/contract';
import { parsePromText, sampleValue } from '../support/prom-text';
import { createTracePath, type TracePath } from '../support/trace-path';
import { runInPath, traceInPath } from '../traceroute/run-in-path';
import path from 'node:path';

const test = suite<{ path: TracePath }>('mtr through three routers');

test.before((ctx) => {
  ctx.path = createTracePath(3, 'ntm');
});

test.after((ctx) => ctx.path?.destroy());

async function mtrOne(p: TracePath, body: Record<string, unknown>): Promise<{ result: MtrResult; metrics: string }> {
  const { answers, metrics } = await traceInPath(p, { asks: [{ tool: 'mtr', body }] });
  const answer = answers[0]!;
  assert.is(answer.status, 200, answer.text);
  return { result: JSON.parse(answer.text) as MtrResult, metrics };
}

// Each hop's addresses in the order they answered, or '*' for a hop nobody answered from.
function addresses(hops: readonly MtrHop[]): string[] {
  return hops.map((h) => (h.addresses.length === 0 ? '*' : h.addresses.map((a) => a.address).join(',')));
}

// Debian's mtr (mtr-tiny; ICMP is its default) in report mode inside the source namespace: its hops' addresses.
function reference(p: TracePath, target: string): string[] {
  // 20 cycles, as the issue asks: a hop that answers now and then would show in mtr's report too.
  const out = p.exec(p.source.ns, ['mtr', '--report', '-n', '-c', '20', '-i', '0.2', target]);
  return out
    .split('\n')
    .map((line) => /^\s*\d+\.\|--\s+(\S+)/.exec(line)?.[1])
    .filter((a): a is string => a !== undefined)
    .map((a) => (a === '???' ? '*' : a));
}

for (const family of [4, 6] as const) {
  test(`IPv${family}: the hops are the routers and the destination in order, every probe answered`, async ({ path: p }) => {
    const target = family === 4 ? p.destination.v4 : p.destination.v6;
    const { result: r } = await mtrOne(p, { host: target, cycles: 3, intervalMs: 200, timeoutMs: 1000 });
    assertMatchesSchema('MtrResult', r);
    assert.equal(addresses(r.hops), [...p.routers.map((n) => (family === 4 ? n.v4 : n.v6)), target]);
    assert.equal([r.destinationReached, r.ipVersion, r.cycles], [true, family, 3]);
    for (const hop of r.hops) assert.equal([hop.sent, hop.received, hop.lossPercent, hop.addresses[0]!.count], [3, 3, 0, 3], JSON.stringify(hop));
    const exceeded = family === 4 ? 'ttl-exceeded' : 'hop-limit-exceeded';
    assert.equal(r.hops.map((h) => h.icmp?.name), [exceeded, exceeded, exceeded, 'echo-reply']);
  });
}

test("the hops are those Debian's mtr --report -n finds on the same path", async ({ path: p }) => {
  const { result: r } = await mtrOne(p, { host: p.destination.v4, cycles: 3, intervalMs: 200 });
  assert.equal(addresses(r.hops), reference(p, p.destination.v4));
});

test('a router whose time exceeded messages are dropped shows 100 % loss at its hop, the hops after it none', async ({ path: p }) => {
  const r2 = p.routers[1]!;
  const rule = ['OUTPUT', '-p', 'icmp', '--icmp-type', 'time-exceeded', '-j', 'DROP'];
  p.exec(r2.ns, ['iptables', '-A', ...rule]);
  try {
    const { result: r } = await mtrOne(p, { host: p.destination.v4, cycles: 3, intervalMs: 200, timeoutMs: 300 });
    assert.equal(addresses(r.hops), [p.routers[0]!.v4, '*', p.routers[2]!.v4, p.destination.v4]);
    assert.equal(r.hops.map((h) => [h.sent, h.lossPercent]), [[3, 0], [3, 100], [3, 0], [3, 0]]);
    assert.equal([r.hops[1]!.avgMs, r.hops[1]!.icmp], [null, undefined]);
    assert.is(r.destinationReached, true);
  } finally {
    p.exec(r2.ns, ['iptables', '-D', ...rule]);
  }
});

// The range of a binomial count (n draws, probability p) outside which it falls with probability at most
// `outside`, half of it on either side: a loss count outside it is a wrong count, not bad luck.
function binomialRange(n: number, p: number, outside: number): [number, number] {
  const pmf: number[] = [];
  let logChoose = 0;
  for (let k = 0; k <= n; k++) {
    if (k > 0) logChoose += Math.log((n - k + 1) / k);
    pmf.push(Math.exp(logChoose + k * Math.log(p) + (n - k) * Math.log(1 - p)));
  }
  let lo = 0;
  for (let below = 0; below + pmf[lo]! <= outside / 2; lo++) below += pmf[lo]!;
  let hi = n;
  for (let above = 0; above + pmf[hi]! <= outside / 2; hi--) above += pmf[hi]!;
  return [lo, hi];
}

test('a router that drops 30 % of its time exceeded messages shows a loss in the binomial range of 30 % at its hop, the hops after it none', async ({ path: p }) => {
  const r2 = p.routers[1]!;
  const rule = ['OUTPUT', '-p', 'icmp', '--icmp-type', 'time-exceeded', '-m', 'statistic', '--mode', 'random', '--probability', '0.3', '-j', 'DROP'];
  // 200 cycles, streamed: the count of lost probes at the hop lies in the 99.99 % binomial range of
  // n = 200, p = 0.3 (computed here: 36..86 lost, 18 % to 43 %), so the test fails by chance once in 10,000 runs.
  const cycles = 200;
  const [lo, hi] = binomialRange(cycles, 0.3, 1e-4);
  p.exec(r2.ns, ['iptables', '-A', ...rule]);
  try {
    const body = { host: p.destination.v4, cycles, intervalMs: 200, timeoutMs: 150 };
    const { answers } = await traceInPath(p, { asks: [{ tool: 'mtr', body, accept: 'application/x-ndjson' }] });
    assert.is(answers[0]!.status, 200, answers[0]!.text);
    const events = answers[0]!.text.trim().split('\n').map((line) => JSON.parse(line) as { event: string; data: any });
    assert.is(events.at(-1)!.event, 'summary', events.at(-1)!.event);
    const r = events.at(-1)!.data as MtrResult;
    assert.equal(addresses(r.hops), [...p.routers.map((n) => n.v4), p.destination.v4]);
    assert.equal(r.hops.map((h) => h.sent), [cycles, cycles, cycles, cycles]);
    const lost = cycles - r.hops[1]!.received;
    assert.ok(lost >= lo && lost <= hi, `${lost} of ${cycles} lost at the lossy hop, outside ${lo}..${hi}`);
    assert.ok(Math.abs(r.hops[1]!.lossPercent - (lost / cycles) * 100) < 0.01, JSON.stringify(r.hops[1]));
    assert.equal([r.hops[0]!.lossPercent, r.hops[2]!.lossPercent, r.hops[3]!.lossPercent], [0, 0, 0]);
  } finally {
    p.exec(r2.ns, ['iptables', '-D', ...rule]);
  }
});

test('the last router refusing with admin-prohibited: the last hop carries that type and code, the destination not reached', async ({ path: p }) => {
  const r3 = p.routers[2]!;
  const rule = ['FORWARD', '-d', p.destination.v4, '-j', 'REJECT', '--reject-with', 'icmp-admin-prohibited'];
  p.exec(r3.ns, ['iptables', '-A', ...rule]);
  try {
    const { result: r } = await mtrOne(p, { host: p.destination.v4, cycles: 3, intervalMs: 200, timeoutMs: 300 });
    // TTL 3 expires at the router before its filter sees the probe; TTL 4 is refused there.
    assert.equal(addresses(r.hops), [...p.routers.map((n) => n.v4), r3.v4]);
    assert.equal(r.hops[3]!.icmp, { type: 3, code: 13, name: 'admin-prohibited' });
    assert.equal([r.hops[3]!.sent, r.hops[3]!.received], [3, 3]);
    assert.is(r.destinationReached, false);
  } finally {
    p.exec(r3.ns, ['iptables', '-D', ...rule]);
  }
});

// A second router beside the second one (a diamond: first router, then either, then the third), in a
// namespace of its own made inside the path's; gone with the returned function.
function addTwinOfSecondRouter(p: TracePath): { v4: string; remove(): void } {
  const [r1, r3] = [p.routers[0]!, p.routers[2]!];
  const twin = `${p.routers[1]!.ns}b`;
  execFileSync('ip', ['netns', 'add', twin]);
  const remove = () => execFileSync('ip', ['netns', 'del', twin]);
  try {
    execFileSync('ip', ['-n', r1.ns, 'link', 'add', 'e0r', 'type', 'veth', 'peer', 'name', 'e0l', 'netns', twin]);
    execFileSync('ip', ['-n', twin, 'link', 'add', 'e1r', 'type', 'veth', 'peer', 'name', 'e1l', 'netns', r3.ns]);
    for (const [ns, ifname, address] of [[r1.ns, 'e0r', '198.18.20.1'], [twin, 'e0l', '198.18.20.2'], [twin, 'e1r', '198.18.21.1'], [r3.ns, 'e1l', '198.18.21.2']] as const) {
      p.exec(ns, ['ip', 'addr', 'add', `${address}/24`, 'dev', ifname]);
      p.exec(ns, ['ip', 'link', 'set', ifname, 'up']);
    }
    p.exec(twin, ['ip', 'link', 'set', 'lo', 'up']);
    for (const s of ['net.ipv4.ip_forward=1', 'net.ipv4.icmp_ratelimit=0']) p.exec(twin, ['sysctl', '-qw', s]);
    p.exec(twin, ['ip', 'route', 'add', '198.18.10.0/24', 'via', '198.18.20.1']);
    p.exec(twin, ['ip', 'route', 'add', '198.18.13.0/24', 'via', '198.18.21.2']);
  } catch (err) {
    remove();
    throw err;
  }
  return { v4: '198.18.20.2', remove };
}

test('ECMP: two routers behind the first, probes alternating between them, both show at that TTL with their counts', async ({ path: p }) => {
  const r1 = p.routers[0]!;
  const twin = addTwinOfSecondRouter(p);
  // Every other probe of TTL 2 (arriving at the first router with TTL 2) is marked and routed to the
  // twin. ECMP routes hash an ICMP echo on its addresses alone, so they would send every probe one way;
  // the mark alternates them by count, as a per-packet balancer does.
  const mark = ['PREROUTING', '-d', p.destination.v4, '-p', 'icmp', '-m', 'ttl', '--ttl-eq', '2', '-m', 'statistic', '--mode', 'nth', '--every', '2', '--packet', '0', '-j', 'MARK', '--set-mark', '7'];
  try {
    p.exec(r1.ns, ['iptables', '-t', 'mangle', '-A', ...mark]);
    p.exec(r1.ns, ['ip', 'route', 'add', '198.18.13.0/24', 'via', twin.v4, 'table', '107']);
    p.exec(r1.ns, ['ip', 'rule', 'add', 'fwmark', '7', 'lookup', '107']);
    const { result: r } = await mtrOne(p, { host: p.destination.v4, cycles: 10, intervalMs: 200, timeoutMs: 300 });
    assert.equal(r.hops[1]!.addresses.map((a) => [a.address, a.count]).sort(), [[p.routers[1]!.v4, 5], [twin.v4, 5]].sort());
    assert.equal([r.hops[1]!.sent, r.hops[1]!.received, r.hops[1]!.lossPercent], [10, 10, 0]);
    assert.equal(addresses([r.hops[0]!, r.hops[2]!, r.hops[3]!]), [r1.v4, p.routers[2]!.v4, p.destination.v4]);
  } finally {
    p.exec(r1.ns, ['iptables', '-t', 'mangle', '-D', ...mark]);
    p.exec(r1.ns, ['ip', 'rule', 'del', 'fwmark', '7', 'lookup', '107']);
    twin.remove();
  }
});

test('a destination that never answers: not reached, the hops shown up to one past the last router', async ({ path: p }) => {
  p.exec(p.destination.ns, ['sysctl', '-qw', 'net.ipv4.icmp_echo_ignore_all=1']);
  try {
    const { result: r } = await mtrOne(p, { host: p.destination.v4, cycles: 2, intervalMs: 200, maxHops: 8, timeoutMs: 300 });
    assert.equal(addresses(r.hops), [...p.routers.map((n) => n.v4), '*']);
    assert.equal(r.hops.map((h) => h.lossPercent), [0, 0, 0, 100]);
    assert.is(r.destinationReached, false);
  } finally {
    p.exec(p.destination.ns, ['sysctl', '-qw', 'net.ipv4.icmp_echo_ignore_all=0']);
  }
});

test('forged time exceeded messages quoting probes the mtr never sent change no hop and are counted as unmatched', async ({ path: p }) => {
  const forger = path.join(__dirname, '..', '..', '..', 'test', 'support', 'forge-time-exceeded.py');
  p.exec(p.destination.ns, ['sysctl', '-qw', 'net.ipv4.icmp_echo_ignore_all=1']);
  try {
    const mtr = runInPath(p, { asks: [{ tool: 'mtr', body: { host: p.destination.v4, cycles: 3, intervalMs: 500, maxHops: 5, timeoutMs: 1000 } }] });
    await mtr.ready;
    // From the middle router, while the mtr runs: 20 forgeries quoting echoes of random ids and sequences.
    execFileSync('ip', ['netns', 'exec', p.routers[1]!.ns, 'python3', forger, p.source.v4, p.destination.v4, '20', '20']);
    const { answers, metrics } = await mtr.done;
    const r = JSON.parse(answers[0]!.text) as MtrResult;
    assert.equal(addresses(r.hops), [...p.routers.map((n) => n.v4), '*']);
    for (const hop of r.hops.slice(0, 3)) assert.equal([hop.sent, hop.received, hop.addresses[0]!.count], [3, 3, 3], JSON.stringify(hop));
    assert.is(sampleValue(parsePromText(metrics), 'nettools_traceroute_unmatched_errors_total', { family: '4' }), 20);
  } finally {
    p.exec(p.destination.ns, ['sysctl', '-qw', 'net.ipv4.icmp_echo_ignore_all=0']);
  }
});

test('streamed NDJSON: start, one cycle event per cycle with the figures so far, then the summary', async ({ path: p }) => {
  const { answers, metrics } = await traceInPath(p, { asks: [{ tool: 'mtr', body: { host: p.destination.v4, cycles: 3, intervalMs: 200 }, accept: 'application/x-ndjson' }] });
  const answer = answers[0]!;
  assert.is(answer.status, 200, answer.text);
  assert.is(answer.contentType, 'application/x-ndjson');
  const events = answer.text.trim().split('\n').map((line) => JSON.parse(line) as { event: string; data: any });
  assert.equal(events.map((e) => e.event), ['start', 'cycle', 'cycle', 'cycle', 'summary']);
  for (const e of events) assertMatchesSchema('MtrStreamEvent', e);
  assert.equal(events[0]!.data.address, p.destination.v4);
  const cycles = events.slice(1, 4).map((e) => e.data);
  assert.equal(cycles.map((c) => c.cycle), [1, 2, 3]);
  assert.equal(cycles.map((c) => c.hops.map((h: MtrHop) => h.sent)), [[1, 1, 1, 1], [2, 2, 2, 2], [3, 3, 3, 3]]);
  const summary = events[4]!.data as MtrResult;
  assert.equal(cycles[2].hops, summary.hops);
  const samples = parsePromText(metrics);
  assert.is(sampleValue(samples, 'nettools_mtr_cycles_total', {}), 3);
  assert.is(sampleValue(samples, 'nettools_mtr_runs_total', { outcome: 'reached' }), 1);
});

test('a client that goes away stops its mtr at once: counted as aborted, no cycle after, its stream closed', async ({ path: p }) => {
  // Cycles three seconds apart: the client leaves a second in, after the first cycle (a millisecond on
  // this path) and long before the second would start.
  const { answers, metrics } = await traceInPath(p, { asks: [{ tool: 'mtr', body: { host: p.destination.v4, cycles: 10, intervalMs: 3000 }, accept: 'application/x-ndjson', abortAfterMs: 1000 }] });
  assert.is(answers[0]!.status, 0);
  const samples = parsePromText(metrics);
  assert.is(sampleValue(samples, 'nettools_mtr_runs_total', { outcome: 'aborted' }), 1);
  assert.is(sampleValue(samples, 'nettools_mtr_cycles_total', {}), 1);
  assert.is(sampleValue(samples, 'nettools_streams_open', { tool: 'mtr' }), 0);
});

test('with asn, each router and the destination carry the origin AS a zone on the path gives their addresses (NETTOOLS_ASN_PRIVATE_HOPS)', async ({ path: p }) => {
  const nodes = [...p.routers, p.destination];
  // AS 64510 + k for node k's address, under the test zone; the benchmarking range is asked about only
  // because NETTOOLS_ASN_PRIVATE_HOPS says so.
  const records = nodes.map((n, k) => `${n.v4.split('.').reverse().join('.')} TXT "${64510 + k} | ${n.v4.replace(/\.\d+$/, '.0')}/24 | ZZ | test | 2026-11-27"`);
  const env = { NETTOOLS_ASN_ZONE_V4: 'origin.asn.test', NETTOOLS_ASN_PRIVATE_HOPS: 'true' };
  const { answers } = await traceInPath(p, { env, zones: [{ domain: 'origin.asn.test', records }], asks: [{ tool: 'mtr', body: { host: p.destination.v4, cycles: 2, intervalMs: 200, asn: true } }] });
  assert.is(answers[0]!.status, 200, answers[0]!.text);
  const r = JSON.parse(answers[0]!.text) as MtrResult;
  assert.equal(
    r.hops.map((h) => h.addresses[0]!.asn),
    nodes.map((n, k) => ({ number: 64510 + k, prefix: n.v4.replace(/\.\d+$/, '.0') + '/24' })),
  );
});

test('with asn but the default ASN policy, no hop of the path (all in 198.18.0.0/15) is asked about', async ({ path: p }) => {
  const records = [`${p.routers[0]!.v4.split('.').reverse().join('.')} TXT "64510 | 198.18.0.0/15"`];
  const { answers, metrics } = await traceInPath(p, { env: { NETTOOLS_ASN_ZONE_V4: 'origin.asn.test' }, zones: [{ domain: 'origin.asn.test', records }], asks: [{ tool: 'mtr', body: { host: p.destination.v4, cycles: 1, asn: true } }] });
  const r = JSON.parse(answers[0]!.text) as MtrResult;
  assert.equal(r.hops.map((h) => h.addresses[0]!.asn), [undefined, undefined, undefined, undefined]);
  assert.is(sampleValue(parsePromText(metrics), 'nettools_resolver_queries_sent_total', { resolver: 'a' }), 0);
});

test.run();
