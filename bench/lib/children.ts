import type { ChildProcess } from 'node:child_process';
import { rmSync } from 'node:fs';

// Everything the run starts is registered here, so a failure, an exception or Ctrl-C stops it all.
const live = new Map<ChildProcess, string>();
const dirs = new Set<string>();

export function track<C extends ChildProcess>(child: C, name: string): C {
  live.set(child, name);
  child.once('exit', () => live.delete(child));
  child.once('error', () => live.delete(child));
  return child;
}

export function trackDir(dir: string): string {
  dirs.add(dir);
  return dir;
}

export function removeDir(dir: string): void {
  rmSync(dir, { recursive: true, force: true });
  dirs.delete(dir);
}

// SIGTERM first (servers drain and exit 0), SIGKILL for whatever is still there after graceMs.
export async function stopChild(child: ChildProcess, graceMs = 3000): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.kill('SIGTERM');
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<'late'>((resolve) => (timer = setTimeout(() => resolve('late'), graceMs)));
  if ((await Promise.race([exited, late])) === 'late') {
    child.kill('SIGKILL');
    await exited;
  }
  clearTimeout(timer);
}

export async function stopAll(): Promise<void> {
  await Promise.all([...live.keys()].map((c) => stopChild(c)));
  for (const dir of [...dirs]) removeDir(dir);
}

// Last resort on the way out: synchronous, because 'exit' handlers cannot wait.
function killAllNow(): void {
  for (const child of live.keys()) child.kill('SIGKILL');
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
}

let installed = false;
let interrupted = false;

// True once a signal started the shutdown: failures of the children it kills are expected then.
export function wasInterrupted(): boolean {
  return interrupted;
}

export function installCleanupHandlers(): void {
  if (installed) return;
  installed = true;
  process.once('exit', killAllNow);
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
    process.once(signal, () => {
      interrupted = true;
      process.stderr.write(`\nbench: ${signal}, stopping everything it started\n`);
      void stopAll().finally(() => process.exit(130));
    });
  }
}

export function liveChildren(): string[] {
  return [...live.values()];
}

// A bench's entry point: everything it started is stopped on the way out, and a failure exits 1 with its
// stack (unless a signal is already stopping everything, which exits by itself).
export function runBench(main: () => Promise<void>): void {
  main()
    .then(() => stopAll())
    .then(() => process.exit(0))
    .catch(async (err: unknown) => {
      if (wasInterrupted()) return;
      process.stderr.write(`bench: failed: ${(err as Error).stack ?? String(err)}\n`);
      await stopAll();
      process.exit(1);
    });
}
