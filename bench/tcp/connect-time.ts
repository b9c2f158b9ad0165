// The connect-time half of the tcp bench: nettools' tcp tool in this process (no HTTP: the check as the
// server runs it) beside connect-loop's blocking connect(), against the same listener, in alternating rounds.
import { execFileSync, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import path from 'node:path';
import { loadConfig } from '../../src/config/config';
import { openTcpConnector, type TcpConnector } from '../../src/engines/tcp/connector';
import { withTarget } from '../../src/tools/host-target';
import { openTcp } from '../../src/tools/tcp/run';
import type { TcpRequest } from '../../src/tools/tcp/types';
import { CancelSource } from '../../src/util/cancel';
import { parseConnectLoop } from '../lib/tcp-stats';

// The C source sits in the source tree: dist/bench/tcp/ -> bench/tcp/.
const SOURCE = path.resolve(__dirname, '..', '..', '..', 'bench', 'tcp', 'connect-loop.c');

export function compileConnectLoop(dir: string): string {
  const binary = path.join(dir, 'connect-loop');
  execFileSync('cc', ['-O2', '-Wall', '-Wextra', '-o', binary, SOURCE], { stdio: ['ignore', 'inherit', 'inherit'] });
  return binary;
}

// The ports a started `connect-loop listen` printed; it fails if the listener dies first.
export function listenerPorts(child: ChildProcess, what: string): Promise<number[]> {
  return new Promise((resolve, reject) => {
    const lines = createInterface({ input: child.stdout! });
    lines.once('line', (line) => resolve(line.trim().split(' ').map(Number)));
    child.once('exit', (code) => reject(new Error(`${what} exited with ${code} before listening`)));
  });
}

export interface ToolRunner {
  connectUs(host: string, port: number, n: number): Promise<number[]>;
  close(): void;
}

// The tcp tool with its real engine; the per-target budget lifted so that thousands of attempts pass.
export function openToolRunner(): ToolRunner {
  const config = loadConfig({ NETTOOLS_RESOLVERS: 'none=127.0.0.1:9', NETTOOLS_ALLOW_PRIVATE_TARGETS: 'true', NETTOOLS_TARGET_CONNECTIONS_PER_MINUTE: '100000', NETTOOLS_LOG_LEVEL: 'silent' }, []);
  const connector: TcpConnector = openTcpConnector();
  const slot = openTcp({ config, dns: { unavailable: 'not needed: IP literals' }, icmp: { unavailable: 'not needed' }, tcp: { connector }, registry: null });
  if (!('run' in slot)) throw new Error(slot.unavailable);
  return {
    async connectUs(host, port, n) {
      const out: number[] = [];
      for (let i = 0; i < n; i++) {
        const outcome = await slot.run(withTarget<TcpRequest>({ host, port, count: 1, intervalMs: 1000, timeoutMs: 2000 }), new CancelSource());
        if (!outcome.ok) throw new Error(`tcp check failed: ${outcome.failure.code} ${outcome.failure.detail}`);
        const attempt = outcome.value.results?.[0];
        if (attempt?.connectMs === undefined) throw new Error(`tcp check did not connect: ${JSON.stringify(attempt)}`);
        out.push(attempt.connectMs * 1000);
      }
      return out;
    },
    close() {
      slot.close();
      connector.close();
    },
  };
}

export function referenceUs(binary: string, host: string, port: number, n: number): number[] {
  const text = execFileSync(binary, ['connect', host, String(port), String(n)], { encoding: 'utf8', timeout: 60_000 });
  const read = parseConnectLoop(text, n);
  if (!read.ok) throw new Error(read.error);
  return read.samplesUs;
}

// `rounds` rounds of `perRound` attempts each side, the two taking turns at going first; a warm-up of the
// tool first (code compiled, the engine's first sockets), not counted.
export async function measureConnect(tool: ToolRunner, binary: string, host: string, port: number, rounds: number, perRound: number): Promise<{ nettools: number[]; reference: number[] }> {
  await tool.connectUs(host, port, 50);
  const nettools: number[] = [];
  const reference: number[] = [];
  for (let r = 0; r < rounds; r++) {
    const runTool = async () => nettools.push(...(await tool.connectUs(host, port, perRound)));
    const runReference = () => reference.push(...referenceUs(binary, host, port, perRound));
    if (r % 2 === 0) {
      await runTool();
      runReference();
    } else {
      runReference();
      await runTool();
    }
  }
  return { nettools, reference };
}
