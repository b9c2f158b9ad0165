// What a tool schedules for itself runs under its request's guard: a throw in a long ping's round timer,
// in a resolver's answer racing for a host name, or in the ICMP engine's call back is that request's
// 500 (or its stream's problem event), logged once as "request failed", while the process and a
// request running beside it live on. Before, each left its request waiting until the client gave up,
// and reached only the last-resort handler. The throws are injected by test/support/scheduled-faults.ts.
import path from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { spawnServer, type ChildServer } from '../support/child-server';
import { postJson, request } from '../support/http';
import { assertProblem } from '../support/problem';
import { waitFor } from '../support/wait';
import { FAULTY_CALLBACK, FAULTY_NAME, FAULTY_ROUND } from '../support/scheduled-fault-marks';

const FAULTS = path.resolve(__dirname, '..', 'support', 'scheduled-faults.js');
const PING = '/api/tools/ping';
const test = suite('faults in scheduled continuations');

function start(workers: number): Promise<ChildServer> {
  return spawnServer({
    NODE_OPTIONS: `--require ${FAULTS}`,
    NETTOOLS_WORKERS: String(workers),
    NETTOOLS_RESOLVERS: 'none=127.0.0.1:9',
    NETTOOLS_ALLOW_PRIVATE_TARGETS: 'true',
    NETTOOLS_RATE_LIMIT: '1000/1s',
  });
}

// A request the fault left waiting fails the test instead of holding it for ever (no measure of time:
// every answer here comes within about two seconds).
function answered<T>(what: string, reply: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const stuck = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(`${what}: no answer, the request was left waiting`)), 30_000)));
  return Promise.race([reply, stuck]).finally(() => clearTimeout(timer));
}

const logged = (server: ChildServer) => server.logs.map((l) => JSON.parse(l) as { msg: string; requestId?: string });

for (const workers of [1, 2]) {
  test(`with ${workers} worker thread${workers > 1 ? 's' : ''}: a round timer, a DNS race callback and an engine callback that throw are each their request's 500`, async () => {
    const server = await start(workers);
    try {
      const beside = postJson(server.base, PING, { host: '127.0.0.1', count: 4, intervalMs: 300 });
      const [timer, race, callback] = await Promise.all([
        answered('the round timer', postJson(server.base, PING, { host: FAULTY_ROUND.address, count: 10 + FAULTY_ROUND.echoes, intervalMs: 100 }, { accept: 'application/x-ndjson', 'x-request-id': 'fault-timer' })),
        answered('the DNS race', postJson(server.base, PING, { host: FAULTY_NAME, count: 1 }, { 'x-request-id': 'fault-race' })),
        answered('the engine callback', postJson(server.base, PING, { host: FAULTY_CALLBACK, count: 1 }, { 'x-request-id': 'fault-callback' })),
      ]);
      // The long ping's first round (its ten echoes) streamed; its second round's timer threw.
      assert.is(timer.status, 200);
      const events = timer.text.trim().split('\n').map((line) => JSON.parse(line) as { event: string; data: { code?: string } });
      assert.equal([events[0]?.event, events.filter((e) => e.event === 'reply').length], ['start', 10]);
      const last = events[events.length - 1]!;
      assert.equal([last.event, last.data.code], ['problem', 'internal-error']);
      assertProblem(race, 500, 'internal-error');
      assertProblem(callback, 500, 'internal-error');
      const alongside = await beside;
      assert.is(alongside.status, 200, alongside.text);
      assert.is(alongside.json<{ packets: { received: number } }>().packets.received, 4);
      // The log lines come through the server's stdout, maybe after its answers.
      const faulted = (id: string) => logged(server).filter((l) => l.msg === 'request failed' && l.requestId === id).length;
      await waitFor('each fault logged', () => faulted('fault-timer') * faulted('fault-race') * faulted('fault-callback') > 0);
      await request(server.base, '/health');
      const lines = logged(server);
      for (const id of ['fault-timer', 'fault-race', 'fault-callback']) {
        assert.is(lines.filter((l) => l.msg === 'request failed' && l.requestId === id).length, 1, `${id} logged once as request failed`);
      }
      assert.is(lines.filter((l) => l.msg.startsWith('uncaught')).length, 0, 'nothing reached the last-resort handler');
      assert.is((await request(server.base, '/health')).status, 200);
      assert.is((await postJson(server.base, PING, { host: '127.0.0.1', count: 1 })).status, 200);
    } finally {
      server.child.kill('SIGTERM');
      await server.exited;
    }
  });
}

test.run();
