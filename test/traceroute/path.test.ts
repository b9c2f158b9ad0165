// Traces through a real routed path of network namespaces (test/support/trace-path.ts): three Linux
// routers between the source, where the server runs (path-child.ts), and the destination. Only
// addresses inside the path are ever probed.
import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { assertMatchesSchema } from '../support/contract';
import { parsePromText, sampleValue } from '../support/prom-text';
import { createTracePath, type TracePath } from '../support/trace-path';
import type { TraceHop, TracerouteResult } from '../../src/tools/traceroute/types';
import { runInPath, traceInPath } from './run-in-path';

const test = suite<{ path: TracePath }>('traceroute through three routers');
const run = promisify(execFile);

test.before((ctx) => {
  ctx.path = createTracePath(3);
});

test.after((ctx) => ctx.path?.destroy());

async function traceOne(p: TracePath, body: Record<string, unknown>): Promise<TracerouteResult> {
  const { answers } = await traceInPath(p, { asks: [{ body }] });
  const answer = answers[0]!;
  assert.is(answer.status, 200, answer.text);
  return JSON.parse(answer.text) as TracerouteResult;
}

// Each hop's answering address (the first probe's), or '*' for a hop of timeouts.
function addresses(hops: readonly TraceHop[]): string[] {
  return hops.map((h) => {
    const answered = h.probes.find((p) => 'address' in p);
    return answered && 'address' in answered ? answered.address : '*';
  });
}

// Debian's `traceroute -I -n -q 1` inside the source namespace, its hops' addresses.
function reference(p: TracePath, family: 4 | 6, target: string): string[] {
  const out = p.exec(p.source.ns, ['traceroute', `-${family}`, '-I', '-n', '-q', '1', '-w', '1', target]);
  return out
    .split('\n')
    .slice(1)
    .filter((line) => /^\s*\d+\s/.test(line))
    .map((line) => line.trim().split(/\s+/)[1] as string);
}

for (const family of [4, 6] as const) {
  test(`IPv${family}: every router and the destination are found hop by hop, as traceroute -I -n finds them`, async ({ path: p }) => {
    const target = family === 4 ? p.destination.v4 : p.destination.v6;
    const r = await traceOne(p, { host: target, probesPerHop: 2, timeoutMs: 1000 });
    const expected = [...p.routers.map((n) => (family === 4 ? n.v4 : n.v6)), target];
    assert.equal(addresses(r.hops), expected);
    assert.equal(reference(p, family, target), expected);
    assertMatchesSchema('TracerouteResult', r);
    assert.is(r.destinationReached, true);
    assert.is(r.ipVersion, family);
    const exceeded = family === 4 ? { type: 11, code: 0, name: 'ttl-exceeded' } : { type: 3, code: 0, name: 'hop-limit-exceeded' };
    const reply = family === 4 ? { type: 0, code: 0, name: 'echo-reply' } : { type: 129, code: 0, name: 'echo-reply' };
    for (const hop of r.hops) {
      assert.is(hop.probes.length, 2);
      for (const probe of hop.probes) {
        assert.ok('icmp' in probe, JSON.stringify(hop));
        assert.equal(probe.icmp, hop.ttl === 4 ? reply : exceeded);
        assert.ok(probe.rttMs >= 0 && probe.rttMs < 1000);
      }
    }
  });
}

test('on datagram ICMP sockets (errors from the error queue) the same hops are found over IPv4 and IPv6', async ({ path: p }) => {
  // Root passes no ping_group_range check by itself: opening the range in the source namespace lets the
  // engine take datagram sockets there, as an unprivileged server would.
  p.exec(p.source.ns, ['sysctl', '-qw', 'net.ipv4.ping_group_range=0 2147483647']);
  try {
    const { answers, kinds } = await traceInPath(p, { asks: [{ body: { host: p.destination.v4, timeoutMs: 1000 } }, { body: { host: p.destination.v6, timeoutMs: 1000 } }] });
    assert.equal(kinds, { v4: 'dgram', v6: 'dgram' });
    const [r4, r6] = answers.map((a) => JSON.parse(a.text) as TracerouteResult);
    assert.equal(addresses(r4!.hops), [...p.routers.map((n) => n.v4), p.destination.v4]);
    assert.equal(addresses(r6!.hops), [...p.routers.map((n) => n.v6), p.destination.v6]);
    assert.equal(r4!.hops[0]!.probes[0], { ...r4!.hops[0]!.probes[0]!, icmp: { type: 11, code: 0, name: 'ttl-exceeded' } });
    assert.equal(r6!.hops[0]!.probes[0], { ...r6!.hops[0]!.probes[0]!, icmp: { type: 3, code: 0, name: 'hop-limit-exceeded' } });
  } finally {
    p.exec(p.source.ns, ['sysctl', '-qw', 'net.ipv4.ping_group_range=1 0']);
  }
});

test('a router that sends no time exceeded is a hop of timeouts, and the hops after it are still found', async ({ path: p }) => {
  const r2 = p.routers[1]!;
  const rule = ['OUTPUT', '-p', 'icmp', '--icmp-type', 'time-exceeded', '-j', 'DROP'];
  p.exec(r2.ns, ['iptables', '-A', ...rule]);
  try {
    const r = await traceOne(p, { host: p.destination.v4, timeoutMs: 300 });
    assert.equal(addresses(r.hops), [p.routers[0]!.v4, '*', p.routers[2]!.v4, p.destination.v4]);
    assert.equal(r.hops[1]!.probes, [{ status: 'timeout' }, { status: 'timeout' }]);
    assert.is(r.destinationReached, true);
  } finally {
    p.exec(r2.ns, ['iptables', '-D', ...rule]);
  }
});

test('a router that refuses with admin-prohibited ends the trace there, the destination not reached', async ({ path: p }) => {
  const r2 = p.routers[1]!;
  const rule = ['FORWARD', '-d', p.destination.v4, '-j', 'REJECT', '--reject-with', 'icmp-admin-prohibited'];
  p.exec(r2.ns, ['iptables', '-A', ...rule]);
  try {
    const r = await traceOne(p, { host: p.destination.v4, timeoutMs: 500 });
    // TTL 2 expires at the router before its filter sees the probe; TTL 3 is refused there.
    assert.equal(addresses(r.hops), [p.routers[0]!.v4, r2.v4, r2.v4]);
    const last = r.hops[2]!.probes[0]!;
    assert.ok('icmp' in last);
    assert.equal(last.icmp, { type: 3, code: 13, name: 'admin-prohibited' });
    assert.is(r.destinationReached, false);
  } finally {
    p.exec(r2.ns, ['iptables', '-D', ...rule]);
  }
});

// The destination ignores echo requests for the callback's time.
async function withSilentDestination<T>(p: TracePath, work: () => Promise<T>): Promise<T> {
  p.exec(p.destination.ns, ['sysctl', '-qw', 'net.ipv4.icmp_echo_ignore_all=1']);
  try {
    return await work();
  } finally {
    p.exec(p.destination.ns, ['sysctl', '-qw', 'net.ipv4.icmp_echo_ignore_all=0']);
  }
}

test('a destination that never answers: timeouts from it up to maxHops, destinationReached false', async ({ path: p }) => {
  const r = await withSilentDestination(p, () => traceOne(p, { host: p.destination.v4, maxHops: 6, probesPerHop: 1, timeoutMs: 300 }));
  assert.equal(addresses(r.hops), [...p.routers.map((n) => n.v4), '*', '*', '*']);
  assert.is(r.destinationReached, false);
});

test('maxHops short of the destination ends the trace at maxHops, destinationReached false', async ({ path: p }) => {
  const r = await traceOne(p, { host: p.destination.v4, maxHops: 2, timeoutMs: 500 });
  assert.equal(addresses(r.hops), [p.routers[0]!.v4, p.routers[1]!.v4]);
  assert.is(r.destinationReached, false);
});

test('forged time exceeded messages quoting probes the trace never sent change nothing and are counted as dropped', async ({ path: p }) => {
  const forger = path.join(__dirname, '..', '..', '..', 'test', 'support', 'forge-time-exceeded.py');
  const result = await withSilentDestination(p, async () => {
    const trace = runInPath(p, { asks: [{ body: { host: p.destination.v4, maxHops: 5, probesPerHop: 1, timeoutMs: 1500 } }] });
    await trace.ready;
    // From the middle router, while the trace waits for its silent hops.
    await run('ip', ['netns', 'exec', p.routers[1]!.ns, 'python3', forger, p.source.v4, p.destination.v4, '20', '20']);
    return trace.done;
  });
  const r = JSON.parse(result.answers[0]!.text) as TracerouteResult;
  assert.equal(addresses(r.hops), [...p.routers.map((n) => n.v4), '*', '*']);
  const dropped = sampleValue(parsePromText(result.metrics), 'nettools_traceroute_unmatched_errors_total', { family: '4' });
  assert.is(dropped, 20);
});

test('a client that goes away stops its trace at once: counted as aborted, its stream closed', async ({ path: p }) => {
  const { answers, metrics } = await withSilentDestination(p, () =>
    traceInPath(p, { asks: [{ body: { host: p.destination.v4, maxHops: 8, probesPerHop: 1, timeoutMs: 3000 }, accept: 'application/x-ndjson', abortAfterMs: 300 }] }),
  );
  assert.is(answers[0]!.status, 0);
  const samples = parsePromText(metrics);
  assert.is(sampleValue(samples, 'nettools_traceroute_traces_total', { outcome: 'aborted' }), 1);
  assert.is(sampleValue(samples, 'nettools_streams_open', { tool: 'traceroute' }), 0);
});

test('streamed: each hop arrives once decided, in TTL order even when a lower hop is decided last, then the summary', async ({ path: p }) => {
  const r2 = p.routers[1]!;
  const rule = ['OUTPUT', '-p', 'icmp', '--icmp-type', 'time-exceeded', '-j', 'DROP'];
  p.exec(r2.ns, ['iptables', '-A', ...rule]);
  try {
    const { answers } = await traceInPath(p, { asks: [{ body: { host: p.destination.v4, timeoutMs: 300 }, accept: 'application/x-ndjson' }] });
    const answer = answers[0]!;
    assert.is(answer.status, 200, answer.text);
    assert.is(answer.contentType, 'application/x-ndjson');
    const events = answer.text.trim().split('\n').map((line) => JSON.parse(line) as { event: string; data: Record<string, unknown> });
    assert.equal(events.map((e) => e.event), ['start', 'hop', 'hop', 'hop', 'hop', 'summary']);
    for (const e of events) assertMatchesSchema('TracerouteStreamEvent', e);
    const summary = events[5]!.data as unknown as TracerouteResult;
    assert.equal(events.slice(1, 5).map((e) => e.data), summary.hops);
    assert.equal(summary.hops.map((h) => h.ttl), [1, 2, 3, 4]);
    assert.equal(events[0]!.data['address'], p.destination.v4);
  } finally {
    p.exec(r2.ns, ['iptables', '-D', ...rule]);
  }
});

test('with asn over IPv6, each hop carries the origin AS a zone on the path gives its address by nibbles (NETTOOLS_ASN_PRIVATE_HOPS)', async ({ path: p }) => {
  const nodes = [...p.routers, p.destination];
  const nibbles = (v6: string) => {
    const [head, tail] = v6.split('::') as [string, string];
    const groups = [...head.split(':'), ...Array(8 - head.split(':').length - 1).fill('0'), tail].map((g) => g.padStart(4, '0'));
    return [...groups.join('')].reverse().join('.');
  };
  const records = nodes.map((n, k) => `${nibbles(n.v6)}.origin6.asn.test. TXT "${64520 + k} | ${n.v6.replace(/::\d+$/, '::')}/64"`);
  const env = { NETTOOLS_ASN_ZONE_V6: 'origin6.asn.test', NETTOOLS_ASN_PRIVATE_HOPS: 'true' };
  const { answers } = await traceInPath(p, { env, zones: [{ domain: 'origin6.asn.test', records }], asks: [{ body: { host: p.destination.v6, asn: true } }] });
  assert.is(answers[0]!.status, 200, answers[0]!.text);
  const r = JSON.parse(answers[0]!.text) as TracerouteResult;
  assert.equal(
    r.hops.map((h) => h.asn),
    nodes.map((n, k) => ({ number: 64520 + k, prefix: `${n.v6.replace(/::\d+$/, '::')}/64` })),
  );
});

test.run();
