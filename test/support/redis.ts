import { spawn, type ChildProcess } from 'node:child_process';
import { accepts, freeTcpPort } from './ports';
import type { Test } from 'uvu';
import { connectRedis, type RedisConnection } from '../../src/ratelimit/redis-store';
import { waitFor } from './wait';

// A private redis-server on a loopback port, nothing persisted; never the system service. It can be
// stopped (connection refused), made slow (DEBUG SLEEP) and started again on the same port.
export interface RedisServer {
  port: number;
  url: string;
  stop(): Promise<void>;
  start(): Promise<void>;
  command(...args: string[]): Promise<string>;
}


export async function startRedis(): Promise<RedisServer> {
  const port = await freeTcpPort('127.0.0.1');
  let child: ChildProcess | null = null;
  const server: RedisServer = {
    port,
    url: `redis://127.0.0.1:${port}`,
    async start() {
      child = spawn('redis-server', ['--bind', '127.0.0.1', '--port', String(port), '--save', '', '--appendonly', 'no', '--protected-mode', 'no'], { stdio: 'ignore' });
      await waitFor(`redis-server accepting connections on port ${port}`, () => accepts(port), { everyMs: 25 });
    },
    async stop() {
      const c = child;
      child = null;
      if (c === null || c.exitCode !== null) return;
      const exited = new Promise((r) => c.once('exit', r));
      c.kill('SIGKILL');
      await exited;
    },
    command: (...args) =>
      new Promise((resolve, reject) => {
        const cli = spawn('redis-cli', ['-p', String(port), ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
        let out = '';
        cli.stdout!.on('data', (c: Buffer) => (out += c.toString()));
        cli.once('exit', (code) => (code === 0 ? resolve(out.trim()) : reject(new Error(`redis-cli ${args.join(' ')} exited ${code}`))));
      }),
  };
  await server.start();
  return server;
}

// A private Redis and one connection to it for a suite: started before its tests, closed after them.
export function withRedisConnection(test: Test<{ redis: RedisServer; conn: RedisConnection }>): void {
  test.before(async (ctx) => {
    ctx.redis = await startRedis();
    ctx.conn = connectRedis(ctx.redis.url);
    await ctx.conn.ready();
  });
  test.after(async (ctx) => {
    await ctx.conn?.close();
    await ctx.redis?.stop();
  });
}
