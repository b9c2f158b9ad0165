import { copyFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { startUnderCallgrind } from './callgrind';
import { say } from './log';
import type { Scenario } from './scenarios';
import { sendSequential } from './sequential-client';

// Instructions per request of one build in one scenario: a fresh server under callgrind, a warm-up with
// the instrumentation off (the JIT compiles what the requests run), then two counted segments of N1 and
// N2 requests, each from zeroed counters to a dump. What a segment costs besides its requests (the
// dump, the idle loop between segments) is in both, so (Ir(N2) - Ir(N1)) / (N2 - N1) is what a request
// costs. Instructions are not cycles, and the kernel's side of every syscall is not counted.

export interface InstructionCount {
  warmupRequests: number;
  requests: [number, number];
  ir: [number, number];
  perRequest: number;
  // The N2 segment's dump, for callgrind_annotate; kept in the system's temporary directory.
  dump: string;
}

export interface CountSettings {
  warmupRequests: number;
  requests: [number, number];
}

export const DUMPS = path.join(tmpdir(), 'nettools-callgrind-dumps');

export async function countInstructions(entry: string, resolvers: string, sc: Scenario, settings: CountSettings, dumpName: string): Promise<InstructionCount> {
  const [n1, n2] = settings.requests;
  // About 50 ms a request under callgrind at worst here (dns), with room for node's start under valgrind.
  const boundMs = 180_000 + (settings.warmupRequests + n1 + n2) * 100;
  const server = await startUnderCallgrind(entry, resolvers, boundMs);
  try {
    const load = (count: number, labelPrefix: string) =>
      sendSequential({ port: server.port, path: sc.path, body: sc.body, count, labelPrefix, expectedStatus: sc.expectedStatus, timeoutMs: 30_000 });
    await load(settings.warmupRequests, 'w');
    await server.control('--instr=on');
    await server.control('--zero');
    await load(n1, 'a');
    const first = await server.dump();
    await server.control('--zero');
    await load(n2, 'b');
    const second = await server.dump();
    mkdirSync(DUMPS, { recursive: true });
    const dump = path.join(DUMPS, `${dumpName}.callgrind`);
    copyFileSync(second.file, dump);
    const perRequest = (second.ir - first.ir) / (n2 - n1);
    say(`${dumpName}: ${Math.round(perRequest)} instructions per request (Ir ${first.ir} for ${n1}, ${second.ir} for ${n2})`);
    return { warmupRequests: settings.warmupRequests, requests: [n1, n2], ir: [first.ir, second.ir], perRequest, dump };
  } finally {
    await server.stop();
  }
}
