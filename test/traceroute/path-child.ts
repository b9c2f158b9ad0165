// Runs inside a path's source namespace (see test/support/trace-path.ts): the real server on this
// namespace's loopback, the requests the parent test names, then /metrics. Prints one JSON line when
// the server listens ({ ready }) and one with every answer ({ answers, metrics, kinds, sockets }).
import { openPinger } from '../../src/engines/icmp/pinger';
import { icmpSockets } from '../support/icmp-sockets';
import { startKnot, type KnotServer, type ZoneSpec } from '../support/knot';
import { startServer } from '../support/server';

interface Ask {
  tool?: 'traceroute' | 'ping' | 'mtr'; // traceroute unless named
  body: Record<string, unknown>;
  accept?: string;
  abortAfterMs?: number; // the client goes away this long after asking
}

interface Job {
  env?: Record<string, string>;
  zones?: ZoneSpec[]; // served by a Knot on this namespace's loopback, the server's one resolver `a`
  asks: Ask[];
  parallel?: boolean; // all at once instead of one after another
}

async function ask(base: string, a: Ask): Promise<{ status: number; contentType: string | null; text: string }> {
  const signal = a.abortAfterMs === undefined ? null : AbortSignal.timeout(a.abortAfterMs);
  try {
    const reply = await fetch(`${base}/api/tools/${a.tool ?? 'traceroute'}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: a.accept ?? 'application/json' },
      body: JSON.stringify(a.body),
      signal,
    });
    return { status: reply.status, contentType: reply.headers.get('content-type'), text: await reply.text() };
  } catch (err) {
    if (signal?.aborted) return { status: 0, contentType: null, text: 'aborted by the client' };
    throw err;
  }
}

async function main(): Promise<void> {
  const job = JSON.parse(process.argv[2] as string) as Job;
  const knot: KnotServer | null = job.zones ? await startKnot(job.zones, '127.0.0.1') : null;
  const resolvers = knot === null ? 'none=127.0.0.1:9' : `a=127.0.0.1:${knot.port}`;
  const env = { NETTOOLS_RESOLVERS: resolvers, NETTOOLS_ALLOW_PRIVATE_TARGETS: 'true', NETTOOLS_RATE_LIMIT: '1000/1s', NETTOOLS_TARGET_TRACES_PER_MINUTE: '1000', ...job.env };
  const server = await startServer(env).catch(async (err: unknown) => {
    await knot?.stop();
    throw err;
  });
  try {
    process.stdout.write(JSON.stringify({ ready: true }) + '\n');
    const answers = [];
    if (job.parallel) answers.push(...(await Promise.all(job.asks.map((a) => ask(server.base, a)))));
    else for (const a of job.asks) answers.push(await ask(server.base, a));
    // A trace the client left is stopped by the server; give it a moment to count it.
    if (job.asks.some((a) => a.abortAfterMs !== undefined)) await new Promise((r) => setTimeout(r, 200));
    const metrics = await (await fetch(`${server.base}/metrics`)).text();
    const sockets = icmpSockets(); // the server's, before the probe below opens its own
    // The socket kinds an engine opens here, as the server's did (datagram first, raw when refused).
    const probe = openPinger();
    const kinds = { v4: probe.socketKinds.v4, v6: probe.socketKinds.v6 };
    probe.close();
    process.stdout.write(JSON.stringify({ answers, metrics, kinds, sockets }) + '\n');
  } finally {
    await server.stop();
    await knot?.stop();
  }
}

main().catch((err: unknown) => {
  process.stderr.write(`${err instanceof Error ? err.stack : String(err)}\n`);
  process.exit(1);
});
