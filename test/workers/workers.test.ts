import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runToExit, spawnServer, type ChildServer } from '../support/child-server';
import { postJson, request } from '../support/http';
import { assertProblem } from '../support/problem';
import { parsePromText, sampleValue } from '../support/prom-text';
import { holdRequest } from '../support/raw-http';
import { waitFor } from '../support/wait';

type Ctx = { dir: string; env: Record<string, string>; server: ChildServer; key: string };
const test = suite<Ctx>('two worker threads on one port');

// Listening sockets on `port` (IPv4 and IPv6 tables): one per worker with SO_REUSEPORT.
function listeners(port: number): number {
  const hex = `:${port.toString(16).toUpperCase().padStart(4, '0')}`;
  let n = 0;
  for (const table of ['/proc/net/tcp', '/proc/net/tcp6']) {
    for (const line of readFileSync(table, 'utf8').split('\n').slice(1)) {
      const cols = line.trim().split(/\s+/);
      if (cols[1]?.endsWith(hex) && cols[3] === '0A') n++;
    }
  }
  return n;
}

// Requests holding a concurrency slot now, across the workers.
const admitted = async (server: ChildServer) => sampleValue(parsePromText((await request(server.base, '/metrics')).text), 'nettools_admitted_in_flight');

async function createKey(env: Record<string, string>, plan: string): Promise<string> {
  const { code, stdout, stderr } = await runToExit(env, ['keys', 'create', '--plan', plan]);
  if (code !== 0) throw new Error(stderr);
  return stdout.trim();
}

test.before(async (ctx) => {
  ctx.dir = mkdtempSync(join(tmpdir(), 'nt-workers-'));
  ctx.env = {
    NETTOOLS_WORKERS: '2',
    // Windows of an hour: a token back every 2 minutes, so counts are exact on a slow machine too.
    NETTOOLS_RATE_LIMIT: '30/1h',
    NETTOOLS_API_KEYS_FILE: join(ctx.dir, 'keys'),
    NETTOOLS_PLANS: 'small=5/1h',
    NETTOOLS_MAX_IN_FLIGHT_PER_CLIENT: '2',
    NETTOOLS_ALLOW_PRIVATE_TARGETS: 'true',
    NETTOOLS_TARGET_ECHOES_PER_SECOND: '3',
  };
  ctx.key = await createKey(ctx.env, 'small');
  ctx.server = await spawnServer(ctx.env);
});

test.after(async (ctx) => {
  if (ctx.server && ctx.server.child.exitCode === null) {
    ctx.server.child.kill('SIGTERM');
    await ctx.server.exited;
  }
  rmSync(ctx.dir, { recursive: true, force: true });
});

test('both workers listen on the one port and both serve', async ({ server }) => {
  assert.is(listeners(server.port), 2);
  const listening = JSON.parse(server.logs.find((l) => l.includes('"listening"')) as string);
  assert.is(listening.workers, 2);
  for (let i = 0; i < 20; i++) await request(server.base, '/health');
  // Access log lines are written asynchronously: wait for all 20.
  const health = () => server.logs.map((l) => JSON.parse(l)).filter((l) => l.path === '/health');
  await waitFor('20 /health lines logged', () => health().length >= 20);
  const served = new Set(health().map((l) => l.worker));
  assert.equal([...served].sort(), [0, 1]);
});

test('80 requests from one client over fresh connections: exactly the budget is admitted', async ({ server }) => {
  const statuses: number[] = [];
  for (let i = 0; i < 80; i++) statuses.push((await postJson(server.base, '/api/tools/ping', { host: 'a b' }, {})).status);
  assert.is(statuses.filter((s) => s === 400).length, 30);
  assert.is(statuses.filter((s) => s === 429).length, 50);
});

test("a key's plan is exact across workers", async ({ server, key }) => {
  const statuses: number[] = [];
  for (let i = 0; i < 12; i++) statuses.push((await postJson(server.base, '/api/tools/dns', {}, { authorization: `Bearer ${key}` })).status);
  assert.equal([statuses.filter((s) => s === 400).length, statuses.filter((s) => s === 429).length], [5, 7]);
});

test('the per-client in-flight cap holds across workers', async ({ server }) => {
  const from = { localAddress: '127.0.0.7' };
  const hold = () => holdRequest(server.port, { ...from, seen: async () => (await admitted(server)) >= 2 });
  const held = await Promise.all([hold(), hold()]);
  try {
    const third = await request(server.base, '/api/tools/ping', { ...from, method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
    assertProblem(third, 429, 'too-many-concurrent');
  } finally {
    for (const h of held) h.finish();
    await Promise.all(held.map((h) => h.response));
    for (const h of held) h.socket.destroy(); // an idle keep-alive connection would hold its worker open at shutdown
  }
});

test('the per-target echo budget is shared by the workers', async ({ server }) => {
  // Each asks for the whole budget of 3: one is served; a second only after a whole second of refill.
  const replies = await Promise.all(
    Array.from({ length: 6 }, (_, i) => request(server.base, '/api/tools/ping', { localAddress: `127.0.2.${i + 1}`, method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"host":"127.0.0.1","count":3,"intervalMs":100}' })),
  );
  assert.equal([replies.filter((r) => r.status === 200).length, replies.filter((r) => r.status === 429).length], [1, 5]);
});

test('the per-target trace budget (default 6 a minute) is shared by the workers', async ({ server }) => {
  const replies = await Promise.all(
    Array.from({ length: 8 }, (_, i) => request(server.base, '/api/tools/traceroute', { localAddress: `127.0.3.${i + 1}`, method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"host":"127.0.0.7","probesPerHop":1}' })),
  );
  assert.equal([replies.filter((r) => r.status === 200).length, replies.filter((r) => r.status === 429).length], [6, 2]);
});

test('/metrics describes the whole process', async ({ server }) => {
  const before = parsePromText((await request(server.base, '/metrics')).text);
  for (let i = 0; i < 10; i++) await request(server.base, '/openapi.json');
  const after = parsePromText((await request(server.base, '/metrics')).text);
  const labels = { route: '/openapi.json', method: 'GET', status: '200' };
  assert.is(sampleValue(after, 'nettools_http_requests_total', labels) - sampleValue(before, 'nettools_http_requests_total', labels), 10);
});

test('SIGHUP reaches every worker: a revoked key is refused by both', async ({ server, env, key }) => {
  assert.is((await runToExit(env, ['keys', 'revoke', key.slice(3, 11)])).code, 0);
  const seen = server.logs.length;
  server.child.kill('SIGHUP');
  await waitFor('both workers reloading their keys', () => server.logs.slice(seen).filter((l) => l.includes('keys reloaded')).length >= 2);
  const workers = server.logs.slice(seen).filter((l) => l.includes('keys reloaded')).map((l) => JSON.parse(l).worker);
  assert.equal(workers.sort(), [0, 1]);
  for (let i = 0; i < 6; i++) {
    const reply = await request(server.base, '/api/limits', { localAddress: `127.0.3.${i + 1}`, headers: { authorization: `Bearer ${key}` } });
    assertProblem(reply, 401, 'invalid-api-key');
  }
});

test('SIGTERM drains both workers, lets pings in flight finish, and exits 0', async ({ server }) => {
  // Two targets, each within its echo budget of 3 a second.
  const pings = ['127.0.0.2', '::1'].map((host, i) =>
    request(server.base, '/api/tools/ping', { localAddress: `127.0.4.${i + 1}`, method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ host, count: 3, intervalMs: 200 }) }),
  );
  // Both pings admitted (holding their slots) before the signal, however slowly they got there.
  await waitFor('both pings admitted', async () => (await admitted(server)) >= 2, { everyMs: 20 });
  server.child.kill('SIGTERM');
  const replies = await Promise.all(pings);
  assert.equal(replies.map((r) => r.status), [200, 200]);
  assert.equal(await server.exited, { code: 0, signal: null });
});

test.run();
