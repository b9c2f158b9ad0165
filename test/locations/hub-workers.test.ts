import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runToExit, stopServers, type ChildServer } from '../support/child-server';
import { postChunked } from '../support/chunked-reader';
import { postJson, request } from '../support/http';
import { agentKeysFile, connectUrl, hello, rawPeer, spawnAgent, startHub, stopAgent, type AgentKeys, type ChildAgent, type RawPeer } from '../support/agents';
import { sniffEchoes } from '../support/echo-sniffer';
import { sleep, waitFor } from '../support/wait';
import { holder, listedEverywhere, onEachWorker, servedBy } from '../support/worker-served';

// A hub on two worker threads: an agent's WebSocket lands on one of them, and a request served by either
// reaches it, its events, payments and cancel included. Which worker serves a request is the kernel's
// choice (SO_REUSEPORT); each request carries an X-Request-Id, and the access log says which worker served it.

interface Ctx {
  dir: string;
  keys: AgentKeys;
  evilKey: string;
  payKey: string;
  costKey: string;
  hub: ChildServer;
  agent: ChildAgent;
}

const test = suite<Ctx>('a hub on two worker threads shares its agents');

test.before(async (ctx) => {
  ctx.dir = mkdtempSync(join(tmpdir(), 'nt-hub-workers-'));
  ctx.keys = agentKeysFile();
  const amsKey = await ctx.keys.create('ams');
  ctx.evilKey = await ctx.keys.create('evil');
  const env = {
    NETTOOLS_WORKERS: '2',
    NETTOOLS_LOCATION: 'hub',
    NETTOOLS_ALLOW_PRIVATE_TARGETS: 'true',
    NETTOOLS_RATE_LIMIT: '1000/1h',
    NETTOOLS_TARGET_ECHOES_PER_SECOND: '1000',
    NETTOOLS_API_KEYS_FILE: join(ctx.dir, 'keys'),
    // Windows of an hour: counts are exact on a slow machine too.
    NETTOOLS_PLANS: 'pay=20/1h,five=5/1h',
  };
  ctx.payKey = await apiKey(env, 'pay');
  ctx.costKey = await apiKey(env, 'five');
  ctx.hub = await startHub(ctx.keys, env);
  // Its own per-target echo budget as loose as the hub's: the tests send it stream after stream.
  ctx.agent = spawnAgent({ NETTOOLS_HUB_URL: connectUrl(ctx.hub.port), NETTOOLS_AGENT_KEY: amsKey, NETTOOLS_LOCATION: 'ams', NETTOOLS_ALLOW_PRIVATE_TARGETS: 'true', NETTOOLS_TARGET_ECHOES_PER_SECOND: '1000' });
  await listedEverywhere(ctx.hub, 'ams');
});

test.after(async (ctx) => {
  if (ctx.agent) await stopAgent(ctx.agent);
  if (ctx.hub) await stopServers(ctx.hub);
  ctx.keys?.remove();
  if (ctx.dir) rmSync(ctx.dir, { recursive: true, force: true });
});

type Event = { event: string; data: Record<string, unknown> };
const events = (text: string): Event[] =>
  text
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => JSON.parse(l) as Event);

test('GET /api/locations on either worker lists the agent connected to one of them', async ({ hub }) => {
  await onEachWorker(hub, 'ams', async (id) => {
    const reply = await request(hub.base, '/api/locations', { headers: { 'x-request-id': id } });
    assert.equal(reply.json().map((l: { name: string }) => l.name), ['hub', 'ams']);
  });
});

test('a JSON ping with locations on either worker is measured at the agent', async ({ hub }) => {
  await onEachWorker(hub, 'ams', async (id) => {
    const reply = await postJson(hub.base, '/api/tools/ping', { host: '127.0.0.1', count: 1, locations: ['hub', 'ams'] }, { 'x-request-id': id });
    assert.is(reply.status, 200, reply.text);
    const body = reply.json();
    assert.is(body.locations.ams.packets.sent, 1, reply.text);
    assert.is(body.locations.ams.reachable, true);
    assert.equal(body.verdict, { reached: 2, of: 2 });
  });
});

test('a streamed ping on either worker streams the agent\'s replies and ends whole', async ({ hub }) => {
  await onEachWorker(hub, 'ams', async (id) => {
    const stream = postChunked(hub.port, '/api/tools/ping', { host: '127.0.0.1', count: 3, intervalMs: 100, locations: ['ams'] }, 'application/x-ndjson', { 'X-Request-Id': id });
    await waitFor('the stream to end', () => stream.ended || stream.error !== null);
    const all = events(stream.text());
    assert.equal(all.map((e) => e.event), ['start', 'reply', 'reply', 'reply', 'summary', 'locations'], stream.text());
    assert.ok(all.slice(0, 5).every((e) => e.data['location'] === 'ams'));
  });
});

test('a streamed ping through the other worker pays the caller\'s key as it goes, exactly', async ({ hub, payKey }) => {
  const auth = { Authorization: `Bearer ${payKey}` };
  const remaining = async () => (await request(hub.base, '/api/limits', { headers: auth })).json().remaining as number;
  // Each stream costs 2 tokens: the request's own, then one at echo 11 of the agent's stream, paid through the relay.
  for (let attempt = 0; attempt < 10; attempt++) {
    const id = `hw-${randomUUID()}`;
    const before = await remaining();
    const stream = postChunked(hub.port, '/api/tools/ping', { host: '127.0.0.1', count: 11, intervalMs: 100, locations: ['ams'] }, 'application/x-ndjson', { ...auth, 'X-Request-Id': id });
    await waitFor('the stream to end', () => stream.ended || stream.error !== null);
    assert.is(events(stream.text()).filter((e) => e.event === 'reply').length, 11, stream.text());
    assert.is(before - (await remaining()), 2);
    if ((await servedBy(hub, id)) !== holder(hub, 'ams')) return;
  }
  // Ten streams all on the agent's worker (1 in 512): the payments were exact, but not through the relay.
  assert.unreachable('no stream was served by the worker without the agent in ten tries');
});

test('a caller that closes its stream on either worker has the agent told to cancel', async ({ hub, evilKey }) => {
  const peer = await evil(hub, evilKey);
  try {
    await onEachWorker(hub, 'evil', async (id) => {
      const seen = peer.messages.length;
      const stream = postChunked(hub.port, '/api/tools/ping', { host: '127.0.0.1', count: 50, intervalMs: 1000, locations: ['evil'] }, 'application/x-ndjson', { 'X-Request-Id': id });
      const handed = waitFor('a run message', () => peer.messages.slice(seen).some((m) => JSON.parse(m).type === 'run'));
      await handed.catch((err: Error) => assert.unreachable(`${err.message}; the stream: ${stream.error ?? 'no error'}, ${stream.head.split('\r\n')[0]}, ${stream.text().slice(0, 300)}`));
      const run = JSON.parse(peer.messages.slice(seen).find((m) => JSON.parse(m).type === 'run')!) as { id: number };
      stream.close();
      await waitFor('a cancel message', () => peer.messages.some((m) => JSON.parse(m).type === 'cancel' && JSON.parse(m).id === run.id));
      peer.ws.send(JSON.stringify({ type: 'done', id: run.id, outcome: { ok: false, failure: { code: 'aborted', detail: 'cancelled' } } }));
    });
  } finally {
    peer.ws.terminate();
  }
  await listedEverywhere(hub, 'evil', false);
});

test('a caller that closes its stream on the other worker stops the real agent\'s echoes', async ({ hub }) => {
  // Echoes of a size of its own, counted on loopback as they leave the agent.
  const sniffer = sniffEchoes();
  await sniffer.ready;
  try {
    for (let attempt = 0; attempt < 12; attempt++) {
      const id = `hw-${randomUUID()}`;
      const before = await sniffer.settled();
      const stream = postChunked(hub.port, '/api/tools/ping', { host: '127.0.0.1', count: 600, intervalMs: 100, size: sniffer.size, locations: ['ams'] }, 'application/x-ndjson', { 'X-Request-Id': id });
      const echoes = waitFor('echoes from the agent', async () => (await sniffer.settled()) - before >= 3);
      await echoes.catch((err: Error) => assert.unreachable(`${err.message}; the stream: ${stream.error ?? 'no error'}, ${stream.head.split('\r\n')[0]}, ${stream.text().slice(0, 300)}`));
      stream.close();
      if ((await servedBy(hub, id)) === holder(hub, 'ams')) continue;
      const atClose = await sniffer.settled();
      await sleep(1000); // the point: a second in which the agent, left running, would send ten more echoes
      const after = await sniffer.settled();
      assert.ok(after - atClose <= 1, `${after - atClose} echoes after the caller went away`);
      return;
    }
    assert.unreachable('no stream was served by the worker without the agent in twelve tries');
  } finally {
    sniffer.stop();
  }
});

test('an agent that goes away mid-stream ends its location as location-offline on either worker', async ({ hub, evilKey }) => {
  let elsewhere = 0;
  for (let round = 0; round < 6 && elsewhere === 0; round++) {
    const peer = await evil(hub, evilKey);
    const at = holder(hub, 'evil');
    const ids = Array.from({ length: 4 }, () => `hw-${randomUUID()}`);
    const streams = ids.map((id) => postChunked(hub.port, '/api/tools/ping', { host: '127.0.0.1', count: 50, intervalMs: 1000, locations: ['evil'] }, 'application/x-ndjson', { 'X-Request-Id': id }));
    await waitFor('four run messages', () => peer.messages.filter((m) => JSON.parse(m).type === 'run').length >= 4);
    peer.ws.close(1000);
    await waitFor('every stream to end', () => streams.every((s) => s.ended || s.error !== null));
    for (const s of streams) {
      const last = events(s.text()).slice(-2);
      assert.equal(last.map((e) => e.event), ['problem', 'locations'], s.text());
      assert.is(last[0]!.data['code'], 'location-offline');
    }
    for (const id of ids) if ((await servedBy(hub, id)) !== at) elsewhere++;
    await listedEverywhere(hub, 'evil', false);
  }
  assert.ok(elsewhere > 0, 'no stream was served by the worker without the agent');
});

test('N locations cost N tokens of the caller\'s key, exactly, across both workers', async ({ hub, costKey }) => {
  const auth = { authorization: `Bearer ${costKey}` };
  const ping = (locations: string[]) => postJson(hub.base, '/api/tools/ping', { host: '127.0.0.1', count: 1, locations }, auth);
  // 5 tokens: two requests of two locations spend 4; one more of two finds 1 token and is refused.
  assert.is((await ping(['hub', 'ams'])).status, 200);
  assert.is((await ping(['ams', 'hub'])).status, 200);
  assert.is((await request(hub.base, '/api/limits', { headers: auth })).json().remaining, 1);
  assert.is((await ping(['hub', 'ams'])).status, 429);
});

async function apiKey(env: Record<string, string>, plan: string): Promise<string> {
  const made = await runToExit(env, ['keys', 'create', '--plan', plan]);
  if (made.code !== 0) throw new Error(made.stderr);
  return made.stdout.trim();
}

// A script speaking the protocol as the test makes it, listed as "evil" on whichever worker it lands.
async function evil(hub: ChildServer, key: string): Promise<RawPeer> {
  const peer = rawPeer(hub.port, key);
  await peer.opened;
  peer.ws.send(hello('evil'));
  await listedEverywhere(hub, 'evil');
  return peer;
}

test.run();
