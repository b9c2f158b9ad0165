// Locations bench (`npm run bench:locations [-- --requests 400 --agents 1000 --hold 10]`), all on loopback:
// 1. Added time: a one-echo JSON ping of 127.0.0.1 made by the hub itself, and the same request sent to
//    one agent (`"locations": ["ams"]`), alternating, `--requests` of each: p50 and p99 of the time each
//    took at the client, and the difference (target: <= 1 ms added at p99).
// 2. Hub CPU per dispatched measurement: the hub's CPU over a run of agent pings against a run of its
//    own pings, each divided by its requests.
// 3. `--agents` connections at once (one process holds them all: a hello each, pongs answered by the ws
//    library), held `--hold` seconds with heartbeats every second: the hub's peak RSS (target <= 300 MB),
//    every agent still listed at the end, and the heartbeat pings each connection saw.
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import WebSocket from 'ws';
import { runKeysCommand } from '../../src/cli/keys-command';
import { agentKeysFile, connectUrl, locations, spawnAgent, startHub, stopAgent, waitListed } from '../../test/support/agents';
import { stopServers } from '../../test/support/child-server';
import { postJson } from '../../test/support/http';
import { cpuPerRequestUs, cpuUse, readCpuTicks } from '../lib/cpu';
import { gitCommit, machine } from '../lib/machine';
import { readPeakRssKiB, resetPeakRss } from '../lib/rss';

const ROOT = path.resolve(__dirname, '..', '..', '..');
const option = (name: string, fallback: number) => {
  const at = process.argv.indexOf(`--${name}`);
  return at >= 0 ? Number(process.argv[at + 1]) : fallback;
};
const quantile = (xs: number[], q: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(q * xs.length))] as number;
const round3 = (x: number) => Math.round(x * 1000) / 1000;

const HUB_ENV = { NETTOOLS_LOCATION: 'hub', NETTOOLS_ALLOW_PRIVATE_TARGETS: 'true', NETTOOLS_RATE_LIMIT: '1000000/1s', NETTOOLS_MAX_IN_FLIGHT_PER_CLIENT: '10000', NETTOOLS_TARGET_ECHOES_PER_SECOND: '100000' };

async function timedPings(base: string, body: object, n: number): Promise<number[]> {
  const times: number[] = [];
  for (let i = 0; i < n; i++) {
    const t0 = performance.now();
    const reply = await postJson(base, '/api/tools/ping', body);
    if (reply.status !== 200) throw new Error(`ping answered ${reply.status}: ${reply.text}`);
    times.push(performance.now() - t0);
  }
  return times;
}

async function addedTime(requests: number) {
  const keys = agentKeysFile();
  const key = await keys.create('ams');
  const hub = await startHub(keys, HUB_ENV);
  const agent = spawnAgent({ NETTOOLS_HUB_URL: connectUrl(hub.port), NETTOOLS_AGENT_KEY: key, NETTOOLS_LOCATION: 'ams', NETTOOLS_ALLOW_PRIVATE_TARGETS: 'true', NETTOOLS_TARGET_ECHOES_PER_SECOND: '100000' });
  try {
    await waitListed(hub.base, 'ams');
    const here = { host: '127.0.0.1', count: 1, timeoutMs: 1000 };
    const there = { ...here, locations: ['ams'] };
    await timedPings(hub.base, there, 20); // warm both paths
    const hubMs: number[] = [];
    const agentMs: number[] = [];
    for (let i = 0; i < requests / 20; i++) {
      hubMs.push(...(await timedPings(hub.base, here, 20)));
      agentMs.push(...(await timedPings(hub.base, there, 20)));
    }
    const cpu = async (body: object) => {
      const before = readCpuTicks(hub.child.pid!);
      const t0 = performance.now();
      await timedPings(hub.base, body, requests);
      const use = cpuUse(before, readCpuTicks(hub.child.pid!), requests, (performance.now() - t0) / 1000);
      return use === null ? null : Math.round(cpuPerRequestUs(use));
    };
    const stats = (xs: number[]) => ({ p50: round3(quantile(xs, 0.5)), p99: round3(quantile(xs, 0.99)) });
    const [h, a] = [stats(hubMs), stats(agentMs)];
    return { requests, hubMs: h, agentMs: a, addedMs: { p50: round3(a.p50 - h.p50), p99: round3(a.p99 - h.p99) }, hubCpuUsPerRequest: { here: await cpu(here), dispatched: await cpu(there) } };
  } finally {
    await stopAgent(agent);
    await stopServers(hub);
    keys.remove();
  }
}

async function manyAgents(count: number, holdS: number) {
  const keys = agentKeysFile();
  const made: Array<[string, string]> = [];
  for (let i = 0; i < count; i++) {
    const name = `a${i}`;
    const out = runKeysCommand(['create', '--agent', name], { NETTOOLS_AGENT_KEYS_FILE: keys.file });
    if (out.code !== 0) throw new Error(out.stderr);
    made.push([name, out.stdout.trim()]);
  }
  const hub = await startHub(keys, { ...HUB_ENV, NETTOOLS_MAX_AGENTS: String(count + 10), NETTOOLS_AGENT_TIMEOUT_MS: '3000' });
  const sockets: WebSocket[] = [];
  const pings = new Array<number>(count).fill(0);
  try {
    resetPeakRss(hub.child.pid!);
    await Promise.all(
      made.map(([name, key], i) => new Promise<void>((resolve, reject) => {
        const ws = new WebSocket(connectUrl(hub.port), { headers: { Authorization: `Bearer ${key}` }, perMessageDeflate: false });
        sockets.push(ws);
        ws.on('open', () => ws.send(JSON.stringify({ type: 'hello', location: name, labels: {}, tools: ['ping'], version: '0.0.0-bench' })));
        ws.on('message', () => resolve());
        ws.on('ping', () => pings[i]!++);
        ws.on('error', reject);
      })),
    );
    const connectedAt = Date.now();
    await new Promise((r) => setTimeout(r, holdS * 1000)); // holding the connections is the measurement
    const listed = (await locations(hub.base)).length - 1;
    const heldS = (Date.now() - connectedAt) / 1000;
    return { agents: count, listed, heldSeconds: round3(heldS), peakRssMiB: Math.round((readPeakRssKiB(hub.child.pid!) ?? 0) / 1024), heartbeatsPerAgent: { min: Math.min(...pings), max: Math.max(...pings), expected: Math.floor(heldS) } };
  } finally {
    for (const ws of sockets) ws.terminate();
    await stopServers(hub);
    keys.remove();
  }
}

async function main(): Promise<void> {
  const requests = option('requests', 400);
  const added = await addedTime(requests);
  console.log('added time', JSON.stringify(added));
  const many = await manyAgents(option('agents', 1000), option('hold', 10));
  console.log('many agents', JSON.stringify(many));
  const report = { bench: 'locations', date: new Date().toISOString(), ...gitCommit(ROOT), machine: machine(), added, many, targets: { addedP99Ms: 1, peakRssMiB: 300 } };
  mkdirSync(path.join(ROOT, 'bench', 'results'), { recursive: true });
  const file = path.join(ROOT, 'bench', 'results', `locations-${report.date.slice(0, 10)}.json`);
  writeFileSync(file, JSON.stringify(report, null, 2) + '\n');
  console.log(`written ${path.relative(ROOT, file)}`);
  process.exit(0);
}

void main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
