import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import WebSocket from 'ws';
import { MAIN, runToExit, spawnServer, type ChildServer } from './child-server';
import { request } from './http';
import { TEST_ENV } from './server';
import { waitFor } from './wait';

// A hub and its agents as an operator runs them: real processes, on loopback only.

export interface AgentKeys {
  dir: string;
  file: string;
  create(location: string): Promise<string>;
  remove(): void;
}

export function agentKeysFile(): AgentKeys {
  const dir = mkdtempSync(join(tmpdir(), 'nt-agents-'));
  const file = join(dir, 'agents');
  // A hub refuses to start on a missing keys file, as for API keys: an empty one holds no keys.
  writeFileSync(file, '', { mode: 0o600 });
  return {
    dir,
    file,
    async create(location) {
      const made = await runToExit({ NETTOOLS_AGENT_KEYS_FILE: file }, ['keys', 'create', '--agent', location]);
      if (made.code !== 0) throw new Error(`keys create --agent failed: ${made.stderr}`);
      return made.stdout.trim();
    },
    remove: () => rmSync(dir, { recursive: true, force: true }),
  };
}

export function startHub(keys: AgentKeys, env: Record<string, string> = {}): Promise<ChildServer> {
  return spawnServer({ NETTOOLS_AGENT_KEYS_FILE: keys.file, ...env });
}

export const connectUrl = (port: number) => `ws://127.0.0.1:${port}/api/agents/connect`;

export interface ChildAgent {
  child: ChildProcess;
  logs: Array<Record<string, unknown>>;
  stderr: () => string;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  saw(msg: string): number; // how many log lines carry this message
}

// `node dist/src/main.js agent`, with a short backoff so a test never waits for the default's seconds;
// inside network namespace `netns` when given (`ip netns exec` execs node: the child is the agent itself).
export function spawnAgent(env: Record<string, string>, netns?: string): ChildAgent {
  const command = netns === undefined ? [process.execPath, MAIN, 'agent'] : ['ip', 'netns', 'exec', netns, process.execPath, MAIN, 'agent'];
  const child = spawn(command[0] as string, command.slice(1), {
    env: { ...process.env, ...TEST_ENV, NETTOOLS_LOG_LEVEL: 'info', NETTOOLS_AGENT_RECONNECT_MS: '50', NETTOOLS_AGENT_RECONNECT_MAX_MS: '200', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const logs: Array<Record<string, unknown>> = [];
  let buffered = '';
  let stderr = '';
  child.stdout!.on('data', (chunk: Buffer) => {
    buffered += chunk.toString();
    let nl: number;
    while ((nl = buffered.indexOf('\n')) >= 0) {
      logs.push(JSON.parse(buffered.slice(0, nl)));
      buffered = buffered.slice(nl + 1);
    }
  });
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => child.on('exit', (code, signal) => resolve({ code, signal })));
  return { child, logs, stderr: () => stderr, exited, saw: (msg) => logs.filter((l) => l['msg'] === msg).length };
}

export async function stopAgent(agent: ChildAgent): Promise<void> {
  if (agent.child.exitCode !== null || agent.child.signalCode !== null) return;
  agent.child.kill('SIGTERM');
  await agent.exited;
}

export interface Listed {
  name: string;
  labels: Record<string, string>;
  tools: string[];
  version: string;
  connectedSince: string;
}

export async function locations(base: string): Promise<Listed[]> {
  const reply = await request(base, '/api/locations');
  if (reply.status !== 200) throw new Error(`GET /api/locations: ${reply.status}`);
  return reply.json();
}

export const listedNames = async (base: string) => (await locations(base)).map((l) => l.name);

export function waitListed(base: string, name: string, listed = true): Promise<void> {
  return waitFor(`${name} ${listed ? '' : 'not '}listed`, async () => (await listedNames(base)).includes(name) === listed);
}

export interface RawPeer {
  ws: WebSocket;
  opened: Promise<void>;
  closed: Promise<{ code: number; reason: string }>;
  refused: Promise<number>; // the HTTP status of a refused upgrade
  messages: string[];
}

// A hand-driven agent: it says only what the test makes it say. `autoPong: false` makes it deaf to
// the hub's heartbeat.
export function rawPeer(port: number, key: string | null, options: { autoPong?: boolean } = {}): RawPeer {
  const ws = new WebSocket(connectUrl(port), { headers: key === null ? {} : { Authorization: `Bearer ${key}` }, autoPong: options.autoPong ?? true });
  const messages: string[] = [];
  ws.on('message', (data) => messages.push(data.toString()));
  const opened = new Promise<void>((resolve) => ws.on('open', () => resolve()));
  const closed = new Promise<{ code: number; reason: string }>((resolve) => ws.on('close', (code, reason) => resolve({ code, reason: reason.toString() })));
  const refused = new Promise<number>((resolve) => ws.on('error', (err) => resolve(Number(/Unexpected server response: (\d+)/.exec(err.message)?.[1] ?? 0))));
  return { ws, opened, closed, refused, messages };
}

export const hello = (location: string, extra: Record<string, unknown> = {}) => JSON.stringify({ type: 'hello', location, labels: {}, tools: ['ping'], version: '0.0.0-test', ...extra });
