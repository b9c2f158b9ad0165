import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { TEST_ENV } from './server';

export const MAIN = path.resolve(__dirname, '..', '..', 'src', 'main.js');

export interface ChildServer {
  child: ChildProcess;
  port: number;
  base: string;
  logs: string[];
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

// `node dist/src/main.js` as an operator runs it, on loopback resolvers, on an ephemeral port.
export function spawnServer(env: Record<string, string> = {}, args: string[] = []): Promise<ChildServer> {
  const child = spawn(process.execPath, [MAIN, ...args], {
    env: { ...process.env, ...TEST_ENV, NETTOOLS_LOG_LEVEL: 'info', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const logs: string[] = [];
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.on('exit', (code, signal) => resolve({ code, signal })),
  );
  return new Promise((resolve, reject) => {
    let buffered = '';
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error('server did not start within 10 s'));
    }, 10_000);
    child.stdout!.on('data', (chunk: Buffer) => {
      buffered += chunk.toString();
      let nl: number;
      while ((nl = buffered.indexOf('\n')) >= 0) {
        const line = buffered.slice(0, nl);
        buffered = buffered.slice(nl + 1);
        logs.push(line);
        const entry = JSON.parse(line);
        if (entry.msg === 'listening') {
          clearTimeout(timer);
          resolve({ child, port: entry.port, base: `http://127.0.0.1:${entry.port}`, logs, exited });
        }
      }
    });
    exited.then(({ code }) => {
      clearTimeout(timer);
      reject(new Error(`server exited with ${code} before listening`));
    });
  });
}

export function runToExit(env: Record<string, string>, args: string[] = []): Promise<{ code: number | null; stderr: string; stdout: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [MAIN, ...args], { env: { ...process.env, ...TEST_ENV, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let stderr = '';
    let stdout = '';
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
    child.on('exit', (code) => resolve({ code, stderr, stdout }));
  });
}

// SIGTERM to each server still running, one after another, each awaited to its exit.
export async function stopServers(...servers: ChildServer[]): Promise<void> {
  for (const s of servers) {
    if (s.child.exitCode !== null) continue;
    s.child.kill('SIGTERM');
    await s.exited;
  }
}
