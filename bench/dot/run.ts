// DoT and DNSSEC bench (`npm run bench:dot [-- --queries N --seconds S --in-flight N --rounds N]`), all on
// loopback, through the native engine's own API (no HTTP): a Knot signing its zone, behind an unbound
// that validates it and serves it over UDP and over DoT (a certificate from a CA made here).
// 1. One query at a time, warm (unbound answers from its cache; the DoT connection is open): the time
//    each query takes at the caller, over UDP and over DoT to the same unbound, alternating in blocks
//    of 50, `--queries` of each; the engine's CPU per query over the same queries.
// 2. `--in-flight` queries outstanding for `--seconds`, UDP and DoT taking turns `--rounds` times:
//    queries a second and CPU per query.
// 3. The same two for a DNSSEC query (`dnssec: true`: DO set, the RRSIG read and reported, AD set by
//    unbound) against a plain one, both over UDP.
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { openResolverClient, type QueryEntry, type ResolverClient, type ResolverQuery } from '../../src/engines/dns';
import { makeDotCertificates } from '../../test/support/dot-certificates';
import { dnskeyAnchors, startKnot } from '../../test/support/knot';
import { startUnbound } from '../../test/support/unbound';
import { closedLoopCallbacks } from '../engines/loop';
import { gitCommit, machine } from '../lib/machine';

const ROOT = path.resolve(__dirname, '..', '..', '..');
const option = (name: string, fallback: number) => {
  const at = process.argv.indexOf(`--${name}`);
  return at >= 0 ? Number(process.argv[at + 1]) : fallback;
};
const QUERIES = option('queries', 2000);
const SECONDS = option('seconds', 3);
const IN_FLIGHT = option('in-flight', 64);
const ROUNDS = option('rounds', 3);
const BLOCK = 50;
const NAME = 'dot.bench.test';
const ZONE = 'bench-dot.test';

const quantile = (xs: number[], q: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(q * xs.length))] as number;
const median = (xs: number[]) => quantile(xs, 0.5);
const round1 = (x: number) => Math.round(x * 10) / 10;
const cpuUs = () => {
  const c = process.cpuUsage();
  return c.user + c.system;
};
const answered = (e: QueryEntry | undefined) => e !== undefined && 'rcode' in e && e.rcode === 'NOERROR';

interface Side {
  label: string;
  request: ResolverQuery;
}

function once(client: ResolverClient, request: ResolverQuery): Promise<boolean> {
  return new Promise((resolve) => client.start(request, ([r]) => resolve(answered(r?.queries.A))));
}

// One query at a time, the two sides alternating in blocks: each query's time at the caller (µs), and
// the CPU the process spent per query over each side's blocks.
async function oneAtATime(client: ResolverClient, sides: Side[]) {
  const times = sides.map(() => [] as number[]);
  const cpu = sides.map(() => 0);
  for (let done = 0; done < QUERIES; done += BLOCK) {
    for (const [i, side] of sides.entries()) {
      const c0 = cpuUs();
      for (let k = 0; k < BLOCK; k++) {
        const t0 = performance.now();
        if (!(await once(client, side.request))) throw new Error(`${side.label}: a query went unanswered`);
        (times[i] as number[]).push((performance.now() - t0) * 1000);
      }
      cpu[i] = (cpu[i] as number) + cpuUs() - c0;
    }
  }
  return sides.map((side, i) => {
    const t = times[i] as number[];
    return { label: side.label, queries: t.length, p50Us: round1(quantile(t, 0.5)), p90Us: round1(quantile(t, 0.9)), p99Us: round1(quantile(t, 0.99)), cpuPerQueryUs: round1((cpu[i] as number) / t.length) };
  });
}

// `IN_FLIGHT` queries outstanding for `SECONDS`, the sides taking turns `ROUNDS` times; medians of the rounds.
async function loaded(client: ResolverClient, sides: Side[]) {
  const qps = sides.map(() => [] as number[]);
  const cpu = sides.map(() => [] as number[]);
  for (let round = 0; round < ROUNDS; round++) {
    const order = round % 2 === 0 ? sides.map((_, i) => i) : sides.map((_, i) => sides.length - 1 - i);
    for (const i of order) {
      const request = (sides[i] as Side).request;
      const c0 = cpuUs();
      const r = await closedLoopCallbacks(IN_FLIGHT, SECONDS, (done) => client.start(request, ([a]) => done(answered(a?.queries.A))));
      if (r.failed > 0) throw new Error(`${(sides[i] as Side).label}: ${r.failed} queries failed under load`);
      (qps[i] as number[]).push(r.completed / r.elapsedS);
      (cpu[i] as number[]).push((cpuUs() - c0) / r.completed);
    }
  }
  return sides.map((side, i) => ({ label: side.label, inFlight: IN_FLIGHT, rounds: ROUNDS, queriesPerSecond: Math.round(median(qps[i] as number[])), cpuPerQueryUs: round1(median(cpu[i] as number[])) }));
}

async function main(): Promise<void> {
  const certs = makeDotCertificates(NAME);
  const knot = await startKnot([{ domain: ZONE, signed: true, records: ['www A 192.0.2.80', 'www AAAA 2001:db8::80'] }], '127.0.0.131');
  const anchors = await dnskeyAnchors(knot, ZONE);
  const unbound = await startUnbound('127.0.0.132', [{ zone: ZONE, address: knot.address, port: knot.port }], anchors, { tls: { pem: certs.pem, key: certs.key } });
  const client = openResolverClient(undefined, certs.caFile);
  try {
    const ask = (resolver: ResolverQuery['resolvers'][number], dnssec: boolean): ResolverQuery => ({ domain: `www.${ZONE}`, types: ['A'], resolvers: [resolver], timeoutMs: 2000, ...(dnssec ? { dnssec } : {}) });
    const transports: Side[] = [
      { label: 'udp', request: ask(unbound.resolver('udp'), false) },
      { label: 'dot', request: ask(unbound.dotResolver('dot', NAME), false) },
    ];
    const dnssec: Side[] = [
      { label: 'plain', request: ask(unbound.resolver('udp'), false) },
      { label: 'dnssec', request: ask(unbound.resolver('udp'), true) },
    ];
    // Warm: unbound's cache, the DoT connection, and a check that the DNSSEC answer is validated.
    for (const side of [...transports, ...dnssec]) await once(client, side.request);
    const [validated] = await client.query(dnssec[1]!.request);
    const a = validated?.queries.A;
    if (!(a !== undefined && 'flags' in a && a.flags.includes('ad') && (a.rrsigs?.length ?? 0) > 0)) throw new Error(`the DNSSEC answer is not validated: ${JSON.stringify(a)}`);
    const result = {
      when: new Date().toISOString(),
      machine: machine(),
      git: gitCommit(ROOT),
      loadAverage: (await import('node:os')).loadavg().map(round1),
      transports: { oneAtATime: await oneAtATime(client, transports), loaded: await loaded(client, transports) },
      dnssec: { oneAtATime: await oneAtATime(client, dnssec), loaded: await loaded(client, dnssec) },
      tlsConnections: client.counters().tlsConnections,
      loadAverageAfter: (await import('node:os')).loadavg().map(round1),
    };
    console.log(JSON.stringify(result, null, 2));
    const out = path.join(ROOT, 'bench', 'results', `dot-${result.when.replace(/[:.]/g, '-')}.json`);
    mkdirSync(path.dirname(out), { recursive: true });
    writeFileSync(out, JSON.stringify(result, null, 2) + '\n');
    console.error(`written to ${path.relative(ROOT, out)}`);
  } finally {
    client.close();
    await unbound.stop();
    await knot.stop();
    certs.remove();
  }
}

main().then(
  () => process.exit(0),
  (err: unknown) => {
    console.error(err);
    process.exit(1);
  },
);
