// Starts path-child.ts in a path's source namespace and reads its two lines: ready, then the answers.
import path from 'node:path';
import type { ZoneSpec } from '../support/knot';
import type { TracePath } from '../support/trace-path';

export interface Answer {
  status: number;
  contentType: string | null;
  text: string;
}

export interface InPath {
  ready: Promise<void>;
  done: Promise<PathAnswers>;
}

export interface PathAnswers {
  answers: Answer[];
  metrics: string;
  kinds: { v4: string | null; v6: string | null }; // the ICMP socket kinds the server used
  sockets: { v4: number; v6: number }; // the ICMP sockets the server's process held, per family
}

const CHILD = path.join(__dirname, 'path-child.js');

export function runInPath(p: TracePath, job: { env?: Record<string, string>; zones?: ZoneSpec[]; asks: Array<{ tool?: 'traceroute' | 'ping' | 'mtr'; body: Record<string, unknown>; accept?: string; abortAfterMs?: number }>; parallel?: boolean }): InPath {
  const child = p.spawn(p.source.ns, [process.execPath, CHILD, JSON.stringify(job)]);
  let out = '';
  let err = '';
  let markReady: () => void = () => undefined;
  const ready = new Promise<void>((resolve) => (markReady = resolve));
  const done = new Promise<PathAnswers>((resolve, reject) => {
    child.stdout!.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      if (out.includes('"ready"')) markReady();
    });
    child.stderr!.on('data', (chunk: Buffer) => (err += chunk.toString()));
    child.on('exit', (code) => {
      const last = out.trim().split('\n').pop() ?? '';
      if (code !== 0 || !last.includes('"answers"')) return reject(new Error(`path child exited ${code}: ${err}${out}`));
      resolve(JSON.parse(last));
    });
  });
  return { ready, done };
}

// Runs the job and returns its answers.
export async function traceInPath(p: TracePath, job: Parameters<typeof runInPath>[1]): Promise<PathAnswers> {
  return runInPath(p, job).done;
}
