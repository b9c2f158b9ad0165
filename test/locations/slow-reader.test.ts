import net from 'node:net';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { stopServers, type ChildServer } from '../support/child-server';
import { postChunked } from '../support/chunked-reader';
import { request } from '../support/http';
import { parsePromText, sampleValue } from '../support/prom-text';
import { agentKeysFile, hello, listedNames, rawPeer, startHub, type AgentKeys, type RawPeer } from '../support/agents';
import { listedEverywhere } from '../support/worker-served';
import { waitFor } from '../support/wait';

// A client that reads a stream over four locations slowly, or not at all, while the agents pour events
// in: the hub passes them on only as far as the client reads, cuts the client off once 256 KiB wait for
// it (as for any stream), and has every agent told to stop. Other clients' streams go on meanwhile.

const LOCATIONS = ['loc-1', 'loc-2', 'loc-3', 'loc-4'];

interface Ctx {
  keys: AgentKeys;
  agentKeys: string[];
  hub: ChildServer;
  peers: Flooder[];
}

// One thread, and two worker threads: there the agents and the reader land on either worker, and the
// agents' events cross between workers before they reach the reader.
function slowReader(workers: number): void {
  const test = suite<Ctx>(`a slow reader of a stream over many locations, ${workers === 1 ? 'one thread' : `${workers} worker threads`}`);

  test.before(async (ctx) => {
    ctx.keys = agentKeysFile();
    ctx.agentKeys = [];
    for (const name of LOCATIONS) ctx.agentKeys.push(await ctx.keys.create(name));
    ctx.hub = await startHub(ctx.keys, { NETTOOLS_WORKERS: String(workers), NETTOOLS_LOCATION: 'hub', NETTOOLS_ALLOW_PRIVATE_TARGETS: 'true', NETTOOLS_RATE_LIMIT: '1000/1h', NETTOOLS_TARGET_ECHOES_PER_SECOND: '1000' });
  });

  test.before.each(async (ctx) => {
    ctx.peers = [];
    for (const [i, name] of LOCATIONS.entries()) ctx.peers.push(await flooder(ctx.hub, name, ctx.agentKeys[i] as string));
  });

  test.after.each(async (ctx) => {
    for (const p of ctx.peers) p.stop();
    for (const name of LOCATIONS) await listedEverywhere(ctx.hub, name, false);
  });

  test.after(async (ctx) => {
    if (ctx.hub) await stopServers(ctx.hub);
    ctx.keys?.remove();
  });

  test('a reader that stops reading is cut off, and every agent is told to stop', async ({ hub, peers }) => {
    const before = await cutOffs(hub);
    const { socket, closed } = stalledReader(hub);
    try {
      await waitFor('every location handed its run', () => peers.every((p) => p.runs.length === 1));
      await waitFor('every agent told to cancel', () => everyRunCancelled(peers), { timeoutMs: 60_000 });
      assert.is(await cutOffs(hub), before + 1);
      // Once resumed, the reader gets what was sent before the cut, then the end of the connection.
      socket.resume();
      await waitFor('the connection to close', () => closed());
      assert.equal(await listedNames(hub.base), ['hub', ...LOCATIONS]);
    } finally {
      socket.destroy();
    }
  });

  test('another client\'s stream runs whole while a stalled reader\'s agents flood the hub', async ({ hub, peers }) => {
    const { socket } = stalledReader(hub);
    try {
      await waitFor('every location handed its run', () => peers.every((p) => p.runs.length === 1));
      const other = postChunked(hub.port, '/api/tools/ping', { host: '127.0.0.1', count: 3, intervalMs: 100, locations: ['hub'] }, 'application/x-ndjson');
      await waitFor('the other stream to end', () => other.ended || other.error !== null);
      const events = other.text().trim().split('\n').map((l) => JSON.parse(l).event);
      assert.equal(events, ['start', 'reply', 'reply', 'reply', 'summary', 'locations']);
      await waitFor('every agent told to cancel', () => everyRunCancelled(peers), { timeoutMs: 60_000 });
    } finally {
      socket.destroy();
    }
  });

  test('a stalled reader that goes away has every agent told to stop', async ({ hub, peers }) => {
    const { socket } = stalledReader(hub);
    await waitFor('every location handed its run', () => peers.every((p) => p.runs.length === 1));
    socket.destroy();
    await waitFor('every agent told to cancel', () => everyRunCancelled(peers));
  });

  test.run();
}

// An agent of the test's making: it answers each `run` with ping replies as fast as its timer allows
// (about a thousand a second, under the hub's flood limit), until the hub cancels it; then `aborted`.
interface Flooder {
  peer: RawPeer;
  runs: number[]; // the ids handed to it
  cancelled: number[]; // the ids the hub cancelled
  stop(): void;
}

const REPLY = { status: 'reply', rttMs: 0.5, ttl: 64, bytes: 64 };

async function flooder(hub: ChildServer, name: string, key: string): Promise<Flooder> {
  const peer = rawPeer(hub.port, key);
  const timers = new Map<number, NodeJS.Timeout>();
  const f: Flooder = { peer, runs: [], cancelled: [], stop: () => (timers.forEach((t) => clearInterval(t)), peer.ws.terminate()) };
  peer.ws.on('message', (data) => {
    const message = JSON.parse(data.toString()) as { type: string; id: number };
    if (message.type === 'run') {
      f.runs.push(message.id);
      let seq = 0;
      timers.set(message.id, setInterval(() => peer.ws.send(JSON.stringify({ type: 'event', id: message.id, event: 'reply', data: { seq: seq++ % 3600, ...REPLY } })), 1));
    }
    if (message.type === 'cancel') {
      f.cancelled.push(message.id);
      clearInterval(timers.get(message.id));
      timers.delete(message.id);
      peer.ws.send(JSON.stringify({ type: 'done', id: message.id, outcome: { ok: false, failure: { code: 'aborted', detail: 'cancelled' } } }));
    }
  });
  await peer.opened;
  peer.ws.send(hello(name));
  await listedEverywhere(hub, name);
  return f;
}

// A client that asks for a long stream over the four locations and does not read it.
function stalledReader(hub: ChildServer): { socket: net.Socket; closed: () => boolean } {
  const socket = net.connect(hub.port, '127.0.0.1');
  const body = JSON.stringify({ host: '127.0.0.1', count: 3600, intervalMs: 100, locations: LOCATIONS });
  socket.write(`POST /api/tools/ping HTTP/1.1\r\nHost: x\r\nAccept: application/x-ndjson\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n${body}`);
  socket.pause();
  let closed = false;
  socket.on('close', () => (closed = true));
  socket.on('error', () => {});
  return { socket, closed: () => closed };
}

const cutOffs = async (hub: ChildServer) => sampleValue(parsePromText((await request(hub.base, '/metrics')).text), 'nettools_streams_cut_off_total', { tool: 'ping' });
const everyRunCancelled = (peers: Flooder[]) => peers.every((p) => p.runs.length > 0 && p.runs.every((id) => p.cancelled.includes(id)));

for (const workers of [1, 2]) slowReader(workers);
