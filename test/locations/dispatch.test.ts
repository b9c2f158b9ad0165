import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { stopServers, type ChildServer } from '../support/child-server';
import { postJson, request } from '../support/http';
import { waitFor } from '../support/wait';
import net from 'node:net';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createServer as createTlsServer } from 'node:tls';
import { agentKeysFile, connectUrl, spawnAgent, startHub, stopAgent, waitListed, type AgentKeys, type ChildAgent } from '../support/agents';

// A request with `locations` runs at each named location: the hub itself and real agent processes
// dialled in over loopback, each with its own engines and settings.

interface Ctx {
  keys: AgentKeys;
  hub: ChildServer;
  agents: ChildAgent[];
}

const test = suite<Ctx>('a request with locations runs at every location it names');

// The hub and the agents may ping loopback unless a test says otherwise; 10/60s leaves room to count.
// Heartbeats every second (a third of the timeout), so that a round trip is measured soon.
const HUB_ENV = { NETTOOLS_LOCATION: 'hub', NETTOOLS_ALLOW_PRIVATE_TARGETS: 'true', NETTOOLS_RATE_LIMIT: '10/60s', NETTOOLS_AGENT_TIMEOUT_MS: '3000' };


test.before.each(async (ctx) => {
  ctx.keys = agentKeysFile();
  ctx.agents = [];
  ctx.hub = await startHub(ctx.keys, HUB_ENV);
});

test.after.each(async (ctx) => {
  for (const a of ctx.agents) await stopAgent(a);
  await stopServers(ctx.hub);
  ctx.keys.remove();
});

const ndjson = (text: string) =>
  text
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as { event: string; data: Record<string, unknown> });

// The hub reads its keys file on SIGHUP: keys made after it started are taken in by one (an agent
// refused before it dials again after its short backoff).
async function withAgents(ctx: Ctx, names: string[], env: Record<string, Record<string, string>> = {}): Promise<void> {
  const keys = await Promise.all(names.map((n) => ctx.keys.create(n)));
  ctx.hub.child.kill('SIGHUP');
  names.forEach((location, i) => {
    ctx.agents.push(spawnAgent({ NETTOOLS_HUB_URL: connectUrl(ctx.hub.port), NETTOOLS_AGENT_KEY: keys[i]!, NETTOOLS_LOCATION: location, NETTOOLS_ALLOW_PRIVATE_TARGETS: 'true', ...(env[location] ?? {}) }));
  });
  for (const name of names) await waitListed(ctx.hub.base, name);
}

test('a JSON ping with two locations holds each location\'s own 200 body and a reached verdict', async (ctx) => {
  await withAgents(ctx, ['ams']);
  const reply = await postJson(ctx.hub.base, '/api/tools/ping', { host: '127.0.0.1', count: 2, intervalMs: 100, locations: ['hub', 'ams'] });
  assert.is(reply.status, 200, reply.text);
  const body = reply.json();
  assert.equal(Object.keys(body.locations), ['hub', 'ams']);
  for (const name of ['hub', 'ams']) {
    assert.is(body.locations[name].reachable, true, name);
    assert.is(body.locations[name].packets.sent, 2, name);
  }
  assert.equal(body.verdict, { reached: 2, of: 2 });
});

test('a request without locations is answered exactly as before: the hub\'s own body', async (ctx) => {
  await withAgents(ctx, ['ams']);
  const reply = await postJson(ctx.hub.base, '/api/tools/ping', { host: '127.0.0.1', count: 1 });
  assert.is(reply.status, 200);
  const body = reply.json();
  assert.is(body.locations, undefined);
  assert.is(body.reachable, true);
});

test('a location that is not connected is a 400 at /locations, and nothing is measured', async (ctx) => {
  const reply = await postJson(ctx.hub.base, '/api/tools/ping', { host: '127.0.0.1', count: 1, locations: ['hub', 'nowhere'] });
  assert.is(reply.status, 400);
  const problem = reply.json();
  assert.is(problem.code, 'validation-failed');
  assert.equal(problem.errors[0].pointer, '/locations');
  assert.match(problem.errors[0].message, 'nowhere is not connected');
});

test('"all" runs at the hub and every connected agent; a number picks that many of them', async (ctx) => {
  await withAgents(ctx, ['ams', 'fra']);
  const all = await postJson(ctx.hub.base, '/api/tools/ping', { host: '127.0.0.1', count: 1, locations: 'all' });
  assert.is(all.status, 200, all.text);
  assert.equal(Object.keys(all.json().locations).sort(), ['ams', 'fra', 'hub']);
  const two = await postJson(ctx.hub.base, '/api/tools/ping', { host: '127.0.0.1', count: 1, locations: 2 });
  assert.is(two.status, 200, two.text);
  assert.is(Object.keys(two.json().locations).length, 2);
  assert.equal(two.json().verdict.of, 2);
  const four = await postJson(ctx.hub.base, '/api/tools/ping', { host: '127.0.0.1', count: 1, locations: 4 });
  assert.is(four.status, 400);
  assert.match(four.json().errors[0].message, '3 connected');
});

test('a request with N locations costs N tokens of the caller\'s bucket, taken before anything is sent', async (ctx) => {
  await withAgents(ctx, ['ams', 'fra']);
  // 10 tokens: three requests of three locations spend 9; one more of three finds 1 token and is refused.
  for (let i = 0; i < 3; i++) assert.is((await postJson(ctx.hub.base, '/api/tools/ping', { host: '127.0.0.1', count: 1, locations: 'all' })).status, 200);
  const refused = await postJson(ctx.hub.base, '/api/tools/ping', { host: '127.0.0.1', count: 1, locations: 'all' });
  assert.is(refused.status, 429);
  assert.is(refused.json().code, 'rate-limited');
  assert.is((await postJson(ctx.hub.base, '/api/tools/ping', { host: '127.0.0.1', count: 1 })).status, 429);
});

test('each agent applies its own target policy: an agent that refuses loopback answers its own problem', async (ctx) => {
  await withAgents(ctx, ['ams'], { ams: { NETTOOLS_ALLOW_PRIVATE_TARGETS: 'false' } });
  const reply = await postJson(ctx.hub.base, '/api/tools/ping', { host: '127.0.0.1', count: 1, locations: ['hub', 'ams'] });
  assert.is(reply.status, 200, reply.text);
  const body = reply.json();
  assert.is(body.locations.hub.reachable, true);
  assert.is(body.locations.ams.problem.code, 'target-forbidden');
  assert.is(body.locations.ams.problem.status, 422);
  assert.equal(body.verdict, { reached: 1, of: 2 });
});

test('a streamed ping with locations tags every event with its location and ends with the whole body', async (ctx) => {
  await withAgents(ctx, ['ams']);
  const reply = await postJson(ctx.hub.base, '/api/tools/ping', { host: '127.0.0.1', count: 3, intervalMs: 100, locations: ['hub', 'ams'] }, { accept: 'application/x-ndjson' });
  assert.is(reply.status, 200);
  const events = ndjson(reply.text);
  for (const name of ['hub', 'ams']) {
    const mine = events.filter((e) => e.data['location'] === name);
    assert.equal(mine.map((e) => e.event), ['start', 'reply', 'reply', 'reply', 'summary'], name);
  }
  const last = events.at(-1)!;
  assert.is(last.event, 'locations');
  assert.equal(Object.keys(last.data['locations'] as object), ['hub', 'ams']);
  assert.equal(last.data['verdict'], { reached: 2, of: 2 });
});

test('traceroute with locations reports each location\'s path and whether it reached the destination', async (ctx) => {
  await withAgents(ctx, ['ams']);
  const reply = await postJson(ctx.hub.base, '/api/tools/traceroute', { host: '127.0.0.1', maxHops: 3, locations: ['hub', 'ams'] });
  assert.is(reply.status, 200, reply.text);
  const body = reply.json();
  assert.is(body.locations.ams.destinationReached, true);
  assert.equal(body.verdict, { reached: 2, of: 2 });
});

test('tcp with locations connects from each location and says from how many it connected', async (ctx) => {
  await withAgents(ctx, ['ams']);
  const listener = net.createServer((socket) => socket.destroy());
  await new Promise<void>((resolve) => listener.listen(0, '127.0.0.1', resolve));
  try {
    const port = (listener.address() as net.AddressInfo).port;
    const reply = await postJson(ctx.hub.base, '/api/tools/tcp', { host: '127.0.0.1', port, count: 2, intervalMs: 200, locations: ['hub', 'ams'] });
    assert.is(reply.status, 200, reply.text);
    const { locations, verdict } = reply.json();
    assert.is(locations.ams.connected, true);
    assert.is(locations.ams.attempts.connected, 2);
    assert.equal(verdict, { reached: 2, of: 2 });
  } finally {
    listener.close();
  }
});

test('tls with locations makes a handshake from each location and says from how many it completed', async (ctx) => {
  await withAgents(ctx, ['ams']);
  const dir = mkdtempSync(join(tmpdir(), 'nt-tls-loc-'));
  execFileSync('openssl', ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', 'key.pem', '-out', 'cert.pem', '-days', '3', '-subj', '/CN=loc.tls.test'], { cwd: dir, stdio: 'ignore' });
  const server = createTlsServer({ key: readFileSync(join(dir, 'key.pem')), cert: readFileSync(join(dir, 'cert.pem')) });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  try {
    const port = (server.address() as net.AddressInfo).port;
    const reply = await postJson(ctx.hub.base, '/api/tools/tls', { host: '127.0.0.1', port, serverName: 'loc.tls.test', locations: ['hub', 'ams'] });
    assert.is(reply.status, 200, reply.text);
    const { locations, verdict } = reply.json();
    assert.equal([locations.hub.status, locations.ams.status], ['handshake', 'handshake']);
    assert.is(locations.ams.verifyError, 'DEPTH_ZERO_SELF_SIGNED_CERT');
    assert.equal(verdict, { reached: 2, of: 2 });
  } finally {
    server.close();
    rmSync(dir, { recursive: true, force: true });
  }
});

test('/metrics counts dispatches and outcomes per location, and the heartbeat round trip to agents', async (ctx) => {
  await withAgents(ctx, ['ams'], { ams: { NETTOOLS_ALLOW_PRIVATE_TARGETS: 'false' } });
  assert.is((await postJson(ctx.hub.base, '/api/tools/ping', { host: '127.0.0.1', count: 1, locations: ['hub', 'ams'] })).status, 200);
  const metrics = async () => (await request(ctx.hub.base, '/metrics')).text;
  const text = await metrics();
  assert.match(text, 'nettools_location_dispatches_total{location="hub",tool="ping"} 1');
  assert.match(text, 'nettools_location_dispatches_total{location="ams",tool="ping"} 1');
  assert.match(text, 'nettools_location_outcomes_total{location="hub",outcome="ok"} 1');
  assert.match(text, 'nettools_location_outcomes_total{location="ams",outcome="target-forbidden"} 1');
  await waitFor('a round trip', async () => /nettools_agent_round_trip_seconds_count [1-9]/.test(await metrics()));
});

test.run();
