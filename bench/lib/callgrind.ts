import { execFile, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { removeDir, stopChild, track, trackDir } from './children';
import { accepts, freePort } from './ports';
import { nettoolsEnv, SERVER_NODE_ARGS } from './servers';

const run = promisify(execFile);

// One nettools server run by valgrind's callgrind, its instrumentation off until `control('--instr=on')`:
// node's start and the warm-up run at valgrind's uninstrumented speed. V8 writes its compiled code into
// anonymous memory it then runs, so valgrind must check every such page for changed code
// (--smc-check=all-non-file); without it callgrind runs stale translations of code V8 has replaced.
// The vgdb pipes get a prefix of their own, and callgrind_control (vgdb) must be run with the server's $HOST
// and $USER: valgrind names the pipes after them, and nettools' environment sets HOST to 127.0.0.1.
// callgrind_control exits 0 whatever happened: what it says is read instead.

export interface CallgrindServer {
  pid: number;
  port: number;
  control(...args: string[]): Promise<void>;
  // Asks for a dump and returns the file's total instructions (Ir) and its path.
  dump(): Promise<{ ir: number; file: string }>;
  stop(): Promise<void>;
}

export const VALGRIND_ARGS = ['--tool=callgrind', '--smc-check=all-non-file', '--instr-atstart=no', '--vgdb=yes'];
// V8's predictable mode: its compiler and collector work on the main thread at points the requests decide,
// not on background threads at points the scheduler does, and a fixed random seed. Without it one build
// against itself read 1.5 to 2% apart; with it, 0.1%.
export const COUNT_NODE_ARGS = ['--predictable', '--random-seed=1'];

export async function startUnderCallgrind(entry: string, resolvers: string, boundMs: number): Promise<CallgrindServer> {
  const port = await freePort();
  const dir = trackDir(mkdtempSync(path.join(tmpdir(), 'nettools-callgrind-')));
  const out = path.join(dir, 'callgrind.out');
  const prefix = path.join(dir, 'vgdb');
  const args = [...VALGRIND_ARGS, `--vgdb-prefix=${prefix}`, `--callgrind-out-file=${out}`, process.execPath, ...COUNT_NODE_ARGS, ...SERVER_NODE_ARGS, entry];
  const env: Record<string, string> = { PATH: process.env['PATH'] ?? '/usr/bin:/bin', ...nettoolsEnv(port, resolvers) };
  const child = track(spawn('valgrind', args, { env, stdio: ['ignore', 'ignore', 'pipe'] }), `callgrind ${entry}`);
  let stderr = '';
  child.stderr!.on('data', (c: Buffer) => (stderr = (stderr + c.toString()).slice(-4000)));
  // Every run stops by itself, whatever the bench does.
  const bound = setTimeout(() => child.kill('SIGKILL'), boundMs);
  bound.unref();
  const stop = async () => {
    clearTimeout(bound);
    await stopChild(child, 20_000);
    removeDir(dir);
  };
  const deadline = Date.now() + 120_000;
  while (!(await accepts(port))) {
    if (child.exitCode !== null || Date.now() > deadline) {
      await stop();
      throw new Error(`nettools under callgrind did not listen on 127.0.0.1:${port}: ${stderr.trim()}`);
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  const pid = child.pid as number;
  const control = async (...a: string[]) => {
    const { stdout, stderr: said } = await run('callgrind_control', [`--vgdb-prefix=${prefix}`, ...a, String(pid)], { timeout: 60_000, env: { PATH: env.PATH, HOST: env['HOST'] } });
    if (!/^\s*OK\.$/m.test(stdout) || /error|not detected/i.test(said + stdout)) throw new Error(`callgrind_control ${a.join(' ')}: ${(stdout + said).trim()}`);
  };
  let dumps = 0;
  const dump = async () => {
    await control('--dump');
    const file = await dumpFile(dir, ++dumps);
    return { ir: totalIr(readFileSync(file, 'utf8')), file };
  };
  return { pid, port, control, dump, stop };
}

// callgrind names its n-th dump callgrind.out.<n>; it may land a moment after callgrind_control returns.
async function dumpFile(dir: string, n: number): Promise<string> {
  const file = path.join(dir, `callgrind.out.${n}`);
  for (let i = 0; i < 100 && !(existsSync(file) && /^totals: /m.test(readFileSync(file, 'utf8'))); i++) await new Promise((r) => setTimeout(r, 100));
  if (!existsSync(file)) throw new Error(`callgrind wrote no dump ${n} (${readdirSync(dir).join(', ')})`);
  return file;
}

// The `totals:` line of a dump (its first event is Ir, the only one collected here).
export function totalIr(text: string): number {
  const m = /^(?:totals|summary): (\d+)/m.exec(text);
  if (!m) throw new Error('a callgrind dump without totals');
  return Number(m[1]);
}
