import dgram from 'node:dgram';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { spawnServer, type ChildServer } from '../support/child-server';
import { postJson, type Reply } from '../support/http';
import { assertProblem } from '../support/problem';
import { waitFor } from '../support/wait';

// NETTOOLS_MAX_TRACES_IN_FLIGHT holds for the whole process, whatever the number of worker threads (it
// was 128 per worker: 256 with two). Lowered to 1 here: one trace is held in flight while its host name
// is asked of a resolver that never answers (the place is taken before the name is asked, so the
// question reaching the resolver says the place is held), and every other trace is refused 503
// overloaded, on whichever worker it lands.
const test = suite<{ resolver: dgram.Socket; asked: Set<string>; port: number }>('the trace cap is per process');

// The question's name of a DNS query (labels from byte 12), for the test to see which holder asked.
function questionName(packet: Buffer): string {
  const labels: string[] = [];
  for (let at = 12; at < packet.length && packet[at] !== 0; at += 1 + packet[at]!) labels.push(packet.subarray(at + 1, at + 1 + packet[at]!).toString('latin1'));
  return labels.join('.');
}

test.before(async (ctx) => {
  ctx.asked = new Set();
  ctx.resolver = dgram.createSocket('udp4');
  ctx.resolver.on('message', (packet) => ctx.asked.add(questionName(packet)));
  await new Promise<void>((resolve) => ctx.resolver.bind(0, '127.0.0.1', resolve));
  ctx.port = ctx.resolver.address().port;
});

test.after(async (ctx) => {
  await new Promise<void>((resolve) => ctx.resolver.close(() => resolve()));
});

function start(ctx: { port: number }, workers: number): Promise<ChildServer> {
  return spawnServer({
    NETTOOLS_WORKERS: String(workers),
    NETTOOLS_MAX_TRACES_IN_FLIGHT: '1',
    NETTOOLS_RESOLVERS: `mute=127.0.0.1:${ctx.port}`,
    NETTOOLS_ALLOW_PRIVATE_TARGETS: 'true',
    NETTOOLS_RATE_LIMIT: '1000/1s',
    NETTOOLS_TARGET_TRACES_PER_MINUTE: '1000',
  });
}

const TRACE = '/api/tools/traceroute';
const QUICK = { host: '127.0.0.1', maxHops: 1, probesPerHop: 1 };

// The worker that served the request of this id, from its log line.
async function servedBy(server: ChildServer, requestId: string): Promise<number> {
  let worker: number | undefined;
  await waitFor(`the log line of ${requestId}`, () => {
    const line = server.logs.map((l) => JSON.parse(l)).find((l) => l.msg === 'request' && l.requestId === requestId);
    worker = line?.worker;
    return line !== undefined;
  });
  return worker ?? 0;
}

// One trace held in flight (its name unanswered: it ends as upstream-timeout), then other traces until each worker has refused one;
// true when the held trace was still in flight through all of them (its resolution times out after 2 s,
// which a loaded machine may outrun: the caller then tries again).
async function refusedEverywhere(ctx: { asked: Set<string> }, server: ChildServer, workers: number, round: string): Promise<boolean> {
  const name = `${round}.hold.test`;
  let held = true;
  const holder = postJson(server.base, TRACE, { host: name, maxHops: 1, probesPerHop: 1 }).then((r: Reply) => {
    held = false;
    return r;
  });
  await waitFor(`the held trace asking ${name}`, () => ctx.asked.has(name));
  const seen = new Set<number>();
  for (let i = 0; seen.size < workers && i < 40; i++) {
    const id = `${round}-extra-${i}`;
    const reply = await postJson(server.base, TRACE, QUICK, { 'x-request-id': id });
    if (!held) break;
    const problem = assertProblem(reply, 503, 'overloaded');
    assert.match(problem.detail, /^1 traces are in flight/);
    seen.add(await servedBy(server, id));
  }
  const whole = held && seen.size === workers;
  assertProblem(await holder, 504, 'upstream-timeout'); // its resolver never answers
  return whole;
}

for (const workers of [1, 2]) {
  test(`with ${workers} worker thread${workers > 1 ? 's' : ''}, one trace in flight refuses the next on every worker, and its end frees the place`, async (ctx) => {
    const server = await start(ctx, workers);
    try {
      let whole = false;
      for (let round = 0; !whole && round < 3; round++) whole = await refusedEverywhere(ctx, server, workers, `w${workers}r${round}`);
      assert.ok(whole, 'the held trace ended before every worker refused one');
      const reply = await postJson(server.base, TRACE, QUICK);
      assert.is(reply.status, 200, reply.text);
    } finally {
      server.child.kill('SIGTERM');
      await server.exited;
    }
  });
}

test.run();
