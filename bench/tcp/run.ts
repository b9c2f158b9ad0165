// TCP bench: how nettools' tcp check's connectMs compares with a plain blocking connect() timed around the
// call (bench/tcp/connect-loop.c, compiled here with cc), on loopback and to a host in a network
// namespace, both against the same listener; then what one check costs the server's CPU under a bounded
// load (checks per second per core). Needs root (the namespace) and cc; everything it sends stays on
// loopback and inside the namespace, which it removes at the end.
// node dist/bench/tcp/run.js [--rounds N] [--per-round N] [--seconds N] [--connections N]
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createNetns } from '../../test/support/netns';
import { removeDir, runBench, track, trackDir } from '../lib/children';
import { loadChecks, loadLine, startLoadServer, type CheckLoad } from '../lib/check-load';
import { countOption } from '../lib/options';
import { attemptsByResult, compare, CONNECT_TARGET_US, type Comparison } from '../lib/tcp-stats';
import { compileConnectLoop, listenerPorts, measureConnect, openToolRunner } from './connect-time';

const LISTENER_PORTS = 16;

const option = (name: string, fallback: number) => countOption(process.argv, name, fallback);

const us = (x: number) => `${x.toFixed(1)} µs`;
const signed = (x: number) => `${x >= 0 ? '+' : ''}${x.toFixed(1)} µs`;

function printComparison(where: string, c: Comparison): void {
  console.log(`${where}: nettools p50 ${us(c.nettools.p50Us)} p99 ${us(c.nettools.p99Us)} | connect() p50 ${us(c.reference.p50Us)} p99 ${us(c.reference.p99Us)} | difference p50 ${signed(c.p50DiffUs)} p99 ${signed(c.p99DiffUs)} (target: within ${CONNECT_TARGET_US} µs: ${c.met ? 'met' : 'not met'}; ${c.nettools.count} samples each)`);
}


async function main(): Promise<void> {
  const rounds = option('--rounds', 10);
  const perRound = option('--per-round', 200);
  const seconds = option('--seconds', 5);
  const connections = option('--connections', 64);
  const loadavg = readFileSync('/proc/loadavg', 'utf8').trim();
  const dir = trackDir(mkdtempSync(path.join(tmpdir(), 'nettools-bench-tcp-')));
  const binary = compileConnectLoop(dir);
  const ns = createNetns();
  const tool = openToolRunner();
  const server = await startLoadServer();
  try {
    const loop = track(execListener(binary, ['listen', '127.0.0.1', String(LISTENER_PORTS)]), 'connect-loop listen (loopback)');
    const nsListener = track(ns.spawn([binary, 'listen', ns.nsV4, String(LISTENER_PORTS)]), 'connect-loop listen (namespace)');
    const targets = [
      { where: 'loopback', host: '127.0.0.1', ports: await listenerPorts(loop, 'the loopback listener') },
      { where: 'namespace', host: ns.nsV4, ports: await listenerPorts(nsListener, 'the namespace listener') },
    ];
    const results = [];
    for (const t of targets) {
      const measured = await measureConnect(tool, binary, t.host, t.ports[0]!, rounds, perRound);
      const comparison = compare(measured.nettools, measured.reference)!;
      printComparison(t.where, comparison);
      // Not counted: the server's first checks of a target compile its code and open its first sockets.
      const checks: CheckLoad = { tool: 'tcp', body: `{"host":"${t.host}","port":{port},"count":1,"timeoutMs":2000}`, ports: t.ports, outcomes: attemptsByResult, counted: 'connected', durationS: 1, connections };
      await loadChecks(server, checks);
      const load = await loadChecks(server, { ...checks, durationS: seconds });
      console.log(loadLine(t.where, load, 'attempts'));
      results.push({ where: t.where, comparison, load });
    }
    const out = path.join(__dirname, '..', '..', '..', 'bench', 'results');
    mkdirSync(out, { recursive: true });
    writeFileSync(path.join(out, `tcp-${new Date().toISOString().replace(/[:.]/g, '-')}.json`), JSON.stringify({ at: new Date().toISOString(), loadavg, nproc: Number(execFileSync('nproc', { encoding: 'utf8' })), rounds, perRound, seconds, connections, results }, null, 2) + '\n');
  } finally {
    tool.close();
    await server.stop();
    ns.destroy();
    removeDir(dir);
  }
}

function execListener(binary: string, args: string[]): ChildProcess {
  return spawn(binary, args, { stdio: ['ignore', 'pipe', 'inherit'] });
}

runBench(main);
