import { randomBytes, randomInt } from 'node:crypto';
import { send, slowBody, type Call, type Target } from './http-client';
import type { StatusCounts } from './types';

// The mixed load: lanes of workers, each sending one kind of request again and again, paced, until the
// end time. Clients are told apart by X-Forwarded-For (the server trusts loopback as a proxy): the
// ordinary lanes spread over 4096 IPv6 /64s so no client spends its bucket, while the rate-limited lane
// hammers from three addresses and mostly gets 429.

export interface Lane {
  name: string;
  workers: number;
  pauseMs: number;
  run(): Promise<string>;
}

export interface TrafficPlan {
  pingTargets: string[];
  allResolvers: string[];
  answeringResolvers: string[];
  zone: string;
}

const pick = <T>(items: readonly T[]): T => items[randomInt(0, items.length)] as T;
const ordinaryClient = () => `2001:db8:0:${randomInt(0, 4096).toString(16)}::1`;
const ABUSIVE_CLIENTS = ['203.0.113.7', '203.0.113.8', '203.0.113.9'];
const DNS_TYPES = ['A', 'AAAA', 'MX', 'TXT'];

function postJson(path: string, body: unknown, client = ordinaryClient()): Call {
  return { method: 'POST', path, headers: { 'content-type': 'application/json', 'x-forwarded-for': client }, body: JSON.stringify(body) };
}

function someTypes(): string[] {
  const types = DNS_TYPES.filter(() => randomInt(0, 2) === 1);
  return types.length ? types : ['A'];
}

function dnsBody(plan: TrafficPlan, domain: string): unknown {
  // Half ask every resolver (the garbage one makes them wait for its deadline), half only the Knots.
  const resolvers = randomInt(0, 2) ? plan.allResolvers : plan.answeringResolvers;
  return { domain, types: someTypes(), resolvers, timeoutMs: 800 };
}

function pingBody(plan: TrafficPlan, count = randomInt(1, 4)): unknown {
  return { host: pick(plan.pingTargets), count, intervalMs: 100, timeoutMs: 500 };
}

const INVALID: Array<() => Call> = [
  () => postJson('/api/tools/ping', { host: '127.0.0.1', count: 0 }),
  () => postJson('/api/tools/ping', { host: '127.0.0.1', bogus: true }),
  () => postJson('/api/tools/dns', { domain: '127.0.0.1' }),
  () => postJson('/api/tools/dns', { domain: 'a..b' }),
  () => postJson('/api/tools/dns', { domain: 'bench.test', types: ['SOA'] }),
  () => ({ ...postJson('/api/tools/ping', {}), body: '{"host": "127.0.0.1",' }),
  () => ({ ...postJson('/api/tools/ping', {}), headers: { 'content-type': 'text/plain', 'x-forwarded-for': ordinaryClient() }, body: 'host=1' }),
  () => postJson('/api/tools/ping', { host: 'x'.repeat(5000) }),
  () => ({ method: 'GET', path: '/api/tools/ping', headers: { 'x-forwarded-for': ordinaryClient() } }),
  () => ({ method: 'GET', path: `/nowhere/${randomInt(0, 1e6)}` }),
];

export function lanes(target: Target, plan: TrafficPlan): Lane[] {
  const fresh = () => `${randomBytes(6).toString('hex')}.${plan.zone}`;
  const hot = () => pick([plan.zone, `mail.${plan.zone}`, `ns.${plan.zone}`]);
  return [
    { name: 'ping', workers: 4, pauseMs: 100, run: () => send(target, postJson('/api/tools/ping', pingBody(plan))) },
    { name: 'dns-hot', workers: 6, pauseMs: 50, run: () => send(target, postJson('/api/tools/dns', dnsBody(plan, hot()))) },
    { name: 'dns-fresh', workers: 6, pauseMs: 50, run: () => send(target, postJson('/api/tools/dns', dnsBody(plan, fresh()))) },
    { name: 'invalid', workers: 2, pauseMs: 20, run: () => send(target, pick(INVALID)()) },
    {
      name: 'aborted',
      workers: 2,
      pauseMs: 100,
      run: () =>
        randomInt(0, 2)
          ? send(target, postJson('/api/tools/ping', pingBody(plan, 3)), randomInt(5, 300))
          : send(target, postJson('/api/tools/dns', dnsBody(plan, fresh())), randomInt(5, 300)),
    },
    {
      name: 'slow-body',
      workers: 2,
      pauseMs: 200,
      // A body that arrives within the deadline (4 bytes per 100 ms), or one that stops and gets 408.
      run: () => {
        const body = JSON.stringify({ domain: hot(), types: ['A'], resolvers: plan.answeringResolvers });
        const client = ordinaryClient();
        return randomInt(0, 2) ? slowBody(target, '/api/tools/dns', client, body, 100) : slowBody(target, '/api/tools/dns', client, body, 100, 8);
      },
    },
    // Quick requests (one loopback echo), so these clients outrun their refill of 30 a minute.
    { name: 'rate-limited', workers: 3, pauseMs: 40, run: () => send(target, postJson('/api/tools/ping', { host: '127.0.0.1', count: 1 }, pick(ABUSIVE_CLIENTS))) },
    {
      name: 'probe-and-reads',
      workers: 1,
      pauseMs: 250,
      run: () =>
        send(target, {
          method: 'GET',
          path: pick([`/probe?module=dns&target=${hot()}&type=A`, `/probe?module=icmp&target=${pick(plan.pingTargets)}`, '/health', '/openapi.json']),
          headers: { 'x-forwarded-for': ordinaryClient() },
        }),
    },
  ];
}

export interface Counting {
  lanes: Record<string, StatusCounts>;
  completedThisSecond: number;
}

// Runs every lane until `untilMs` (Date.now() scale); resolves when the last request has settled.
export async function drive(all: Lane[], untilMs: number, counting: Counting): Promise<void> {
  const workers: Array<Promise<void>> = [];
  for (const lane of all) {
    const counts: StatusCounts = (counting.lanes[lane.name] = {});
    for (let w = 0; w < lane.workers; w++) {
      workers.push(
        (async () => {
          while (Date.now() < untilMs) {
            const status = await lane.run();
            counts[status] = (counts[status] ?? 0) + 1;
            counting.completedThisSecond++;
            await new Promise((r) => setTimeout(r, lane.pauseMs));
          }
        })(),
      );
    }
  }
  await Promise.all(workers);
}
