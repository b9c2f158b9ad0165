import { spawn } from 'node:child_process';
import { stopChild, track } from './children';
import { accepts, freePort } from './ports';

// A private redis-server on a loopback port for the nettools-redis variant, nothing persisted; never
// the system service.
export interface BenchRedis {
  url: string;
  stop(): Promise<void>;
}

export async function startBenchRedis(): Promise<BenchRedis> {
  const port = await freePort();
  const child = track(spawn('redis-server', ['--bind', '127.0.0.1', '--port', String(port), '--save', '', '--appendonly', 'no'], { stdio: 'ignore' }), 'redis-server');
  for (let i = 0; i < 200 && !(await accepts(port)); i++) {
    if (child.exitCode !== null) throw new Error(`redis-server exited with ${child.exitCode}`);
    await new Promise((r) => setTimeout(r, 25));
  }
  return { url: `redis://127.0.0.1:${port}`, stop: () => stopChild(child) };
}
