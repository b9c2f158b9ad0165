// A server whose two resolvers (loopback Knot servers, one address each) hold the reverse zones of
// 127.0.0.0/24 and ::1: 127.0.0.2 is target.loop.test, ::1 is six.loop.test. For the resolveNames tests
// of the tools that name hops (traceroute, mtr), which go to loopback only.
import { request } from './http';
import { startKnot, type KnotServer } from './knot';
import { parsePromText, sampleValue } from './prom-text';
import { startServer, type RunningServer } from './server';

export const V6_LOOPBACK_ZONE = `${'0.'.repeat(31)}ip6.arpa`;

export interface ReverseNamesSetup {
  a: KnotServer;
  b: KnotServer;
  server: RunningServer;
}

// `addresses`: the two resolvers' own loopback addresses, one pair per test file, so files can run at once.
export async function startReverseNamesServer(addresses: [string, string]): Promise<ReverseNamesSetup> {
  const zones = [
    { domain: '0.0.127.in-addr.arpa', records: ['2 PTR target.loop.test.'] },
    { domain: V6_LOOPBACK_ZONE, records: ['1 PTR six.loop.test.'] },
  ];
  const a = await startKnot(zones, addresses[0]);
  const b = await startKnot(zones, addresses[1]);
  const server = await startServer({
    NETTOOLS_RESOLVERS: `a=${addresses[0]}:${a.port},b=${addresses[1]}:${b.port}`,
    NETTOOLS_ALLOW_PRIVATE_TARGETS: 'true',
    NETTOOLS_RATE_LIMIT: '1000/1s',
    NETTOOLS_TARGET_TRACES_PER_MINUTE: '1000',
  });
  return { a, b, server };
}

export async function stopReverseNamesServer(setup: Partial<ReverseNamesSetup>): Promise<void> {
  await setup.server?.stop();
  await setup.a?.stop();
  await setup.b?.stop();
}

// Packets the server has sent to one resolver (its budget's count).
export async function sentTo(server: RunningServer, resolver: string): Promise<number> {
  return sampleValue(parsePromText((await request(server.base, '/metrics')).text), 'nettools_resolver_queries_sent_total', { resolver });
}
