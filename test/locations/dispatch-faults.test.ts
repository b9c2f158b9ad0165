import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { stopServers, type ChildServer } from '../support/child-server';
import { postChunked } from '../support/chunked-reader';
import { postJson } from '../support/http';
import { agentKeysFile, connectUrl, hello, rawPeer, spawnAgent, startHub, stopAgent, waitListed, type AgentKeys, type ChildAgent, type RawPeer } from '../support/agents';
import { waitFor } from '../support/wait';

// What a location that goes away, or misbehaves, does to a request with locations: it ends that location
// with its problem, never another location's result, never the hub.

interface Ctx {
  keys: AgentKeys;
  hub: ChildServer;
  agents: ChildAgent[];
  peers: RawPeer[];
  evilKey: string;
}

const test = suite<Ctx>('a location that fails harms only its own result');

test.before.each(async (ctx) => {
  ctx.keys = agentKeysFile();
  ctx.agents = [];
  ctx.peers = [];
  ctx.evilKey = await ctx.keys.create('evil');
  ctx.hub = await startHub(ctx.keys, { NETTOOLS_LOCATION: 'hub', NETTOOLS_ALLOW_PRIVATE_TARGETS: 'true', NETTOOLS_RATE_LIMIT: '3/60s' });
});

test.after.each(async (ctx) => {
  for (const p of ctx.peers) p.ws.terminate();
  for (const a of ctx.agents) await stopAgent(a);
  await stopServers(ctx.hub);
  ctx.keys.remove();
});

type Event = { event: string; data: Record<string, unknown> };
const events = (text: string): Event[] =>
  text
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as Event);

async function realAgent(ctx: Ctx, location: string): Promise<ChildAgent> {
  const key = await ctx.keys.create(location);
  ctx.hub.child.kill('SIGHUP'); // the hub takes the new key in; the agent dials until it is
  const agent = spawnAgent({ NETTOOLS_HUB_URL: connectUrl(ctx.hub.port), NETTOOLS_AGENT_KEY: key, NETTOOLS_LOCATION: location, NETTOOLS_ALLOW_PRIVATE_TARGETS: 'true' });
  ctx.agents.push(agent);
  await waitListed(ctx.hub.base, location);
  return agent;
}

// A script speaking the protocol as the test makes it: listed as "evil", announcing ping.
async function evilAgent(ctx: Ctx): Promise<RawPeer> {
  const peer = rawPeer(ctx.hub.port, ctx.evilKey);
  ctx.peers.push(peer);
  await peer.opened;
  peer.ws.send(hello('evil'));
  await waitListed(ctx.hub.base, 'evil');
  return peer;
}

async function runMessage(peer: RawPeer): Promise<{ id: number; tool: string; request: Record<string, unknown>; stream: boolean }> {
  await waitFor('a run message', () => peer.messages.some((m) => JSON.parse(m).type === 'run'));
  return JSON.parse(peer.messages.find((m) => JSON.parse(m).type === 'run')!);
}

const PING = { host: '127.0.0.1', count: 2, intervalMs: 100 };

async function cutOffBy(ctx: Ctx, say: (peer: RawPeer, id: number) => void): Promise<void> {
  const peer = await evilAgent(ctx);
  const pending = postJson(ctx.hub.base, '/api/tools/ping', { ...PING, locations: ['hub', 'evil'] });
  const run = await runMessage(peer);
  say(peer, run.id);
  const closed = await peer.closed;
  assert.is(closed.code, 1008);
  const reply = await pending;
  assert.is(reply.status, 200, reply.text);
  const body = reply.json();
  assert.is(body.locations.hub.reachable, true);
  assert.is(body.locations.evil.problem.code, 'location-offline');
  assert.match(body.locations.evil.problem.detail, 'cut off');
  assert.equal(body.verdict, { reached: 1, of: 2 });
  await waitListed(ctx.hub.base, 'evil', false);
}

test('an agent whose result does not fit the tool\'s schema is cut off; the other location is whole', async (ctx) => {
  await cutOffBy(ctx, (peer, id) => peer.ws.send(JSON.stringify({ type: 'done', id, outcome: { ok: true, value: { reachable: '<script>alert(1)</script>' } } })));
});

test('an agent that answers a measurement it was never handed is cut off', async (ctx) => {
  await cutOffBy(ctx, (peer, id) => peer.ws.send(JSON.stringify({ type: 'done', id: id + 1000, outcome: { ok: false, failure: { code: 'aborted', detail: 'x' } } })));
});

test('an agent that sends a failure this API does not have is cut off', async (ctx) => {
  await cutOffBy(ctx, (peer, id) => peer.ws.send(JSON.stringify({ type: 'done', id, outcome: { ok: false, failure: { code: 'pwned', detail: 'x' } } })));
});

test('an agent that floods the hub with messages is cut off', async (ctx) => {
  await cutOffBy(ctx, (peer, id) => {
    for (let i = 0; i < 2500; i++) peer.ws.send(JSON.stringify({ type: 'spend', id }));
  });
});

test('an agent that goes away mid-measurement ends its location as location-offline', async (ctx) => {
  const peer = await evilAgent(ctx);
  const pending = postJson(ctx.hub.base, '/api/tools/ping', { ...PING, locations: ['hub', 'evil'] });
  await runMessage(peer);
  peer.ws.close(1000);
  const body = (await pending).json();
  assert.is(body.locations.hub.reachable, true);
  assert.is(body.locations.evil.problem.code, 'location-offline');
  assert.match(body.locations.evil.problem.detail, 'went away');
});

test('a caller that goes away has each agent told to cancel its measurement', async (ctx) => {
  const peer = await evilAgent(ctx);
  const stream = postChunked(ctx.hub.port, '/api/tools/ping', { host: '127.0.0.1', count: 50, intervalMs: 1000, locations: ['evil'] }, 'application/x-ndjson');
  const run = await runMessage(peer);
  assert.is(run.stream, true);
  // The caller's body as the hub's schema filled it in, without `locations`: the agent checks it again.
  assert.equal(run.request, { host: '127.0.0.1', count: 50, intervalMs: 1000, timeoutMs: 1000, size: 56 });
  stream.close();
  await waitFor('a cancel message', () => peer.messages.some((m) => JSON.parse(m).type === 'cancel' && JSON.parse(m).id === run.id));
});

test('kill -9 of an agent mid-stream: its location-offline problem event, the other location streams on to its summary', async (ctx) => {
  const agent = await realAgent(ctx, 'ams');
  const stream = postChunked(ctx.hub.port, '/api/tools/ping', { host: '127.0.0.1', count: 6, intervalMs: 300, locations: ['hub', 'ams'] }, 'application/x-ndjson');
  await waitFor('a reply from ams', () => events(stream.text()).some((e) => e.event === 'reply' && e.data['location'] === 'ams'));
  agent.child.kill('SIGKILL');
  await waitFor('the stream to end', () => stream.ended, { timeoutMs: 15_000 });
  const all = events(stream.text());
  const ams = all.filter((e) => e.data['location'] === 'ams');
  assert.is(ams.at(-1)!.event, 'problem');
  assert.is(ams.at(-1)!.data['code'], 'location-offline');
  const hub = all.filter((e) => e.data['location'] === 'hub');
  assert.equal(hub.map((e) => e.event), ['start', 'reply', 'reply', 'reply', 'reply', 'reply', 'reply', 'summary']);
  const last = all.at(-1)!;
  assert.is(last.event, 'locations');
  assert.equal(last.data['verdict'], { reached: 1, of: 2 });
});

test('a long streamed ping at an agent pays the caller\'s bucket as it goes, through the hub', async (ctx) => {
  await realAgent(ctx, 'ams');
  // 3 tokens: the request's own, then one per further started ten echoes (echo 11 and echo 21).
  const reply = await postJson(ctx.hub.base, '/api/tools/ping', { host: '127.0.0.1', count: 21, intervalMs: 100, locations: ['ams'] }, { accept: 'application/x-ndjson' });
  const all = events(reply.text);
  assert.is(all.at(-1)!.event, 'locations', reply.text.slice(-300));
  assert.is((all.at(-1)!.data['locations'] as any).ams.packets.sent, 21);
  assert.is((await postJson(ctx.hub.base, '/api/tools/ping', { host: '127.0.0.1', count: 1 })).status, 429);
});

test('a long streamed ping at an agent ends with the caller\'s rate-limited problem when the bucket is spent', async (ctx) => {
  await realAgent(ctx, 'ams');
  const reply = await postJson(ctx.hub.base, '/api/tools/ping', { host: '127.0.0.1', count: 31, intervalMs: 100, locations: ['ams'] }, { accept: 'application/x-ndjson' });
  const ams = events(reply.text).filter((e) => e.data['location'] === 'ams');
  assert.is(ams.at(-1)!.event, 'problem', reply.text.slice(-300));
  assert.is(ams.at(-1)!.data['code'], 'rate-limited');
  assert.is(ams.filter((e) => e.event === 'reply').length, 30);
});

test.run();
