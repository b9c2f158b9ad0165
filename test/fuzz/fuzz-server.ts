import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runToExit, spawnServer, type ChildServer } from '../support/child-server';
import { request } from '../support/http';
import { startKnot, type KnotServer } from '../support/knot';
import { FUZZ_RECORDS, FUZZ_ZONE } from './names';
import { send } from './send';

// The real server as an operator runs it (its own process, so a crash is seen and not shared), on
// loopback Knot resolvers, with every budget raised so that no 429 or 503 hides a case, and with
// private targets refused: no generated ping target is ever pinged, loopback included.
export interface FuzzTarget {
  port: number;
  doc: any; // its /openapi.json
  resolverIds: string[];
  apiKey: string;
  // Whether the process is still up and answers /health; a dead one is started again.
  alive(): Promise<boolean>;
  // Lines the server logged at level error since the last call: a thrown error the server survived
  // (a guarded callback, a last-resort handler, a replaced worker thread) is still a bug. Lines are
  // written asynchronously: with the answer's request id, this first waits (up to 2 s) for that
  // request's access line, which comes after anything else it logged.
  takeErrors(requestId?: string): Promise<string[]>;
  restart(): Promise<void>;
  crashes: string[]; // what each dead server left on stderr and how it ended
  stop(): Promise<void>;
}

export interface FuzzResolvers {
  env: string; // NETTOOLS_RESOLVERS
  ids: string[];
  stop(): Promise<void>;
}

export async function startFuzzResolvers(): Promise<FuzzResolvers> {
  const zone = [{ domain: FUZZ_ZONE, records: FUZZ_RECORDS }];
  const knots: KnotServer[] = [await startKnot(zone, '127.0.0.21'), await startKnot(zone, '127.0.0.22')];
  return {
    env: knots.map((k, i) => `r${i + 1}=${k.address}:${k.port}`).join(','),
    ids: knots.map((_, i) => `r${i + 1}`),
    stop: async () => void (await Promise.all(knots.map((k) => k.stop()))),
  };
}

function fuzzEnv(resolvers: FuzzResolvers, keysFile: string, workers: number): Record<string, string> {
  return {
    NETTOOLS_RESOLVERS: resolvers.env,
    NETTOOLS_ALLOW_PRIVATE_TARGETS: 'false',
    NETTOOLS_RATE_LIMIT: '1000000/1h',
    NETTOOLS_MAX_IN_FLIGHT_PER_CLIENT: '10000',
    NETTOOLS_RESOLVER_QPS: '1000000',
    NETTOOLS_TARGET_ECHOES_PER_SECOND: '1',
    NETTOOLS_API_KEYS_FILE: keysFile,
    NETTOOLS_PLANS: 'fuzz=1000000/1h:10000',
    NETTOOLS_WORKERS: String(workers),
    // Info: the listening line, and each request's access line (see takeErrors).
    NETTOOLS_LOG_LEVEL: 'info',
  };
}

function watchStderr(server: ChildServer): () => string {
  let text = '';
  server.child.stderr?.on('data', (chunk: Buffer) => (text = (text + chunk.toString().replace(/\x1b\[[0-9;]*m/g, '')).slice(-4000)));
  return () => text;
}

// With send's wait: a server that is up but answers nothing counts as dead.
async function healthy(port: number): Promise<boolean> {
  const reply = await send(port, { method: 'GET', path: '/health', headers: {} });
  return reply.kind === 'answer' && reply.status === 200;
}

export async function startFuzzTarget(resolvers: FuzzResolvers, workers = 1): Promise<FuzzTarget> {
  const dir = mkdtempSync(join(tmpdir(), 'nt-fuzz-'));
  const env = fuzzEnv(resolvers, join(dir, 'api-keys'), workers);
  const created = await runToExit(env, ['keys', 'create', '--plan', 'fuzz']);
  if (created.code !== 0) throw new Error(`keys create failed: ${created.stderr}`);
  let server = await spawnServer(env);
  let stderr = watchStderr(server);
  let read = 0; // log lines of `server` already looked at
  let stopped = false;
  // No server outlives the test process, whatever ends it.
  const killNow = () => void server.child.kill('SIGKILL');
  process.once('exit', killNow);
  const doc = (await request(server.base, '/openapi.json')).json();
  const target: FuzzTarget = {
    port: server.port,
    doc,
    resolverIds: resolvers.ids,
    apiKey: created.stdout.trim(),
    crashes: [],
    async alive() {
      const up = server.child.exitCode === null && server.child.signalCode === null && (await healthy(server.port));
      if (!up) await target.restart();
      return up;
    },
    async takeErrors(requestId) {
      const logged = `"requestId":"${requestId}"`;
      const deadline = Date.now() + 2000;
      const arrived = () => server.logs.slice(read).some((line) => line.includes(logged) && line.includes('"msg":"request"'));
      while (requestId !== undefined && !arrived() && Date.now() < deadline) await new Promise((r) => setTimeout(r, 1));
      const fresh = server.logs.slice(read);
      read = server.logs.length;
      return fresh.filter((line) => ['error', 'fatal'].includes(JSON.parse(line).level));
    },
    // A case still running when its run was cut off by the time limit may get here after stop(): it
    // must not leave a new server behind.
    async restart() {
      if (server.child.exitCode === null && server.child.signalCode === null) server.child.kill('SIGKILL');
      const ended = await server.exited;
      target.crashes.push(`exit ${ended.code ?? ended.signal}; stderr: ${stderr().trim().split('\n').slice(0, 12).join('\n')}`);
      if (stopped) return;
      const next = await spawnServer(env);
      if (stopped) return void next.child.kill('SIGKILL');
      server = next;
      stderr = watchStderr(server);
      read = 0;
      target.port = server.port;
    },
    async stop() {
      stopped = true;
      process.removeListener('exit', killNow);
      if (server.child.exitCode === null && server.child.signalCode === null) {
        server.child.kill('SIGTERM');
        await server.exited;
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
  return target;
}
