import { spawn } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { Agent } from 'node:http';
import path from 'node:path';
import { installCleanupHandlers, stopAll, stopChild, track } from '../lib/children';
import { startKnot } from '../lib/knot';
import { say } from '../lib/log';
import { gitCommit, machine } from '../lib/machine';
import { freePort } from '../lib/ports';
import { checkTools } from '../lib/tools';
import { renderSoakChart } from './chart';
import { FaultInjector } from './faults';
import { startGarbageResolver } from './garbage-resolver';
import { startIcmpTarget } from './icmp-target';
import { parseSoakOptions } from './options';
import { resultJson } from './result-json';
import { scrape, takeSample } from './sampler';
import { drive, lanes, type Counting } from './traffic';
import type { Sample, SoakResult } from './types';
import { fdTrend, judge, oldAfterCollections, rssOutsideHeapTrend, rssTrend } from './verdict';

// `npm run soak -- --minutes M`: the server on loopback resolvers under a bounded mixed load with faults,
// sampled each second; fails on growth of RSS or fds that lasts to the end, an in-flight gauge not back
// to idle at the end, or any 500. Writes soak.json and soak.svg (bench/results/ unless --out).

const ROOT = path.resolve(__dirname, '..', '..', '..');
const MAIN = path.join(ROOT, 'dist', 'src', 'main.js');
const TOOLS = ['knotd', 'kdig', 'ip', 'sysctl'];

async function waitHealthy(port: number, exited: () => string | null): Promise<void> {
  const deadline = Date.now() + 15_000;
  while (Date.now() < deadline) {
    const why = exited();
    if (why !== null) throw new Error(`the server exited at start: ${why}`);
    if ((await scrape(port, 1000)) !== null) return;
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error('the server did not serve /metrics within 15 s');
}

async function main(): Promise<number> {
  const opts = parseSoakOptions(process.argv.slice(2));
  if (typeof opts === 'string') {
    process.stderr.write(`soak: ${opts}\n`);
    return 2;
  }
  checkTools(TOOLS, 'run bash test/setup/ensure-deps.sh (npm run soak does)');
  installCleanupHandlers();
  const durationMs = opts.minutes * 60_000;
  // Everything is stopped if the run overruns its length by two minutes (setup, drain, teardown).
  const deadline = setTimeout(() => {
    say('the soak overran its bound; stopping everything');
    void stopAll().finally(() => process.exit(1));
  }, durationMs + 120_000);
  deadline.unref();

  const startedAt = new Date().toISOString();
  const { commit, dirty } = gitCommit(ROOT);
  const knot = await startKnot(2);
  const junkPort = await freePort('127.0.0.3');
  const junk = await startGarbageResolver('127.0.0.3', junkPort);
  const icmpTarget = startIcmpTarget();
  const paused = knot.servers[1]!;
  const port = await freePort();
  const serverEnv: Record<string, string> = {
    NETTOOLS_RESOLVERS: `${knot.resolversEnv},junk=127.0.0.3:${junkPort}`,
    NETTOOLS_ALLOW_PRIVATE_TARGETS: 'true',
    NETTOOLS_TRUST_PROXY: '127.0.0.1/32',
    NETTOOLS_RATE_LIMIT: '30/60s',
    NETTOOLS_MAX_IN_FLIGHT_PER_CLIENT: '4',
    NETTOOLS_MAX_IN_FLIGHT: '1024',
    NETTOOLS_TARGET_ECHOES_PER_SECOND: '10000',
    NETTOOLS_BODY_TIMEOUT_MS: '2000',
    NETTOOLS_LOG_LEVEL: 'error',
  };
  // Only loopback resolvers: the environment is built here, not inherited.
  const env = { PATH: process.env['PATH'] ?? '/usr/bin:/bin', PORT: String(port), HOST: '127.0.0.1', ...serverEnv };
  const server = track(spawn(process.execPath, [MAIN], { env, stdio: ['ignore', 'pipe', 'pipe'] }), 'nettools');
  const errorLines: string[] = [];
  let serverExit: string | null = null;
  server.on('exit', (code, signal) => (serverExit = `exit ${code ?? signal}`));
  for (const stream of [server.stdout!, server.stderr!]) {
    stream.on('data', (c: Buffer) => {
      for (const line of c.toString().split('\n')) if (line.trim() !== '' && errorLines.length < 50) errorLines.push(line);
    });
  }
  await waitHealthy(port, () => serverExit);
  const pid = server.pid as number;
  const idle = await scrape(port);
  if (idle === null) throw new Error('no /metrics answer before the load');
  say(`server pid ${pid} on 127.0.0.1:${port}; resolvers ${serverEnv['NETTOOLS_RESOLVERS']}; ping target ${icmpTarget.address}`);
  say(`load for ${opts.minutes} min (warm-up ${opts.warmupS} s), a sample each second`);

  const agent = new Agent({ keepAlive: true, maxSockets: 64 });
  const target = { host: '127.0.0.1', port, agent };
  const plan = {
    pingTargets: ['127.0.0.1', '::1', icmpTarget.address],
    allResolvers: [...knot.servers.map((s) => s.id), 'junk'],
    answeringResolvers: knot.servers.map((s) => s.id),
    zone: 'bench.test',
  };
  const counting: Counting = { lanes: {}, completedThisSecond: 0 };
  const faults = new FaultInjector({ pausedResolverPid: paused.pid, icmpTarget });
  const samples: Sample[] = [];
  const start = Date.now();
  let sampling = false;
  const tick = setInterval(() => {
    const t = Math.round((Date.now() - start) / 1000);
    const active = faults.apply(t);
    if (sampling) return; // the previous scrape is still out: this second goes unsampled
    sampling = true;
    const requests = counting.completedThisSecond;
    counting.completedThisSecond = 0;
    void takeSample(pid, port, t, requests, active).then((s) => {
      samples.push(s);
      sampling = false;
      if (t % 60 === 0) say(`t=${t}s rss ${((s.rssKiB ?? 0) / 1024).toFixed(1)} MiB, fds ${s.fds}, ${requests} req/s, faults [${active.join(', ')}]`);
    });
  }, 1000);

  await drive(lanes(target, plan), start + durationMs, counting);
  clearInterval(tick);
  faults.clear();
  while (sampling) await new Promise((r) => setTimeout(r, 50));
  agent.destroy();

  // In-flight requests must all settle once the load is gone: wait up to 15 s for the idle readings.
  let end = await scrape(port);
  for (let i = 0; i < 30 && end !== null && JSON.stringify(end.inFlight) !== JSON.stringify(idle.inFlight); i++) {
    await new Promise((r) => setTimeout(r, 500));
    end = await scrape(port);
  }
  const finishedAt = new Date().toISOString();
  await stopChild(server);
  await knot.stop();
  await junk.stop();
  icmpTarget.stop();

  const status500 = Object.values(counting.lanes).reduce((a, c) => a + (c['500'] ?? 0), 0);
  const requests = Object.values(counting.lanes).reduce((a, c) => a + Object.values(c).reduce((x, y) => x + y, 0), 0);
  const rss = rssTrend(samples, opts.warmupS);
  const memory = { rssOutsideHeap: rssOutsideHeapTrend(samples, opts.warmupS), oldAfterCollections: oldAfterCollections(samples, opts.warmupS) };
  const fds = fdTrend(samples, opts.warmupS);
  const inFlightAtEnd = end?.inFlight ?? {};
  const verdict = judge({
    rss,
    ...memory,
    fds,
    idleInFlight: idle.inFlight,
    inFlightAtEnd,
    status500,
    serverExit: serverExit === null || serverExit === 'exit 0' ? null : serverExit,
    samples: samples.length,
    expectedSamples: Math.floor(durationMs / 1000),
    harnessProblems: faults.problems,
  });
  if (errorLines.length > 0) verdict.notes.push(`the server logged ${errorLines.length} error line(s); first: ${errorLines[0]}`);
  verdict.notes.push(`garbage resolver sent: ${JSON.stringify(junk.answered)}`);
  const result: SoakResult = {
    harnessProblems: faults.problems,
    startedAt,
    finishedAt,
    minutes: opts.minutes,
    warmupS: opts.warmupS,
    commit: dirty ? `${commit}-dirty` : commit,
    machine: machine(),
    server: serverEnv,
    lanes: counting.lanes,
    totals: { requests, perSecond: requests / (durationMs / 1000), status500 },
    inFlightAtEnd,
    idleInFlight: idle.inFlight,
    trend: { rss, ...memory, fds },
    verdict,
    samples,
  };
  const outDir = opts.outDir ?? path.join(ROOT, 'bench', 'results');
  mkdirSync(outDir, { recursive: true });
  writeFileSync(path.join(outDir, 'soak.json'), resultJson(result));
  writeFileSync(path.join(outDir, 'soak.svg'), renderSoakChart(result));
  process.stdout.write(summary(result, outDir));
  return verdict.ok ? 0 : 1;
}

function summary(r: SoakResult, outDir: string): string {
  const mib = (k: number) => `${(k / 1024).toFixed(1)} MiB`;
  const sorted = (pick: (s: Sample) => number | null) => r.samples.map(pick).filter((v): v is number => v !== null).sort((a, b) => a - b);
  const p99s = sorted((s) => s.loopLagP99Ms);
  const lags = sorted((s) => s.loopLagMs);
  const outside = r.trend.rssOutsideHeap;
  const lines = [
    `soak ${r.verdict.ok ? 'PASSED' : 'FAILED'}: ${r.minutes} min, ${r.totals.requests} requests (${r.totals.perSecond.toFixed(0)}/s), ${r.samples.length} samples`,
    `  RSS after warm-up (as read, not judged): median ${mib(r.trend.rss.firstThirdMedian)} (first third) -> ${mib(r.trend.rss.lastThirdMedian)} (last third), slope ${mib(r.trend.rss.slopePerHour)}/h`,
    `  RSS outside the V8 heap: median ${mib(outside.firstThirdMedian)} -> ${mib(outside.lastThirdMedian)}, slope ${mib(outside.slopePerHour)}/h; from ${outside.lateFromS} s (judged) ${mib(outside.lateSlopePerHour)}/h (95% low ${mib(outside.lateSlopeLowPerHour)}/h)`,
    `  old generation after ${r.trend.oldAfterCollections.collections} major collections: median ${mib(r.trend.oldAfterCollections.firstThirdMedian)} (first third) -> ${mib(r.trend.oldAfterCollections.lastThirdMedian)} (last third)`,
    `  open fds after warm-up: median ${r.trend.fds.firstThirdMedian} -> ${r.trend.fds.lastThirdMedian}, slope ${r.trend.fds.slopePerHour.toFixed(1)}/h; from ${r.trend.fds.lateFromS} s (judged): ${r.trend.fds.lateSlopePerHour.toFixed(1)}/h`,
    `  event-loop delay p99 per second (10 ms resolution): median ${(p99s[p99s.length >> 1] ?? 0).toFixed(1)} ms, worst ${(p99s[p99s.length - 1] ?? 0).toFixed(1)} ms; lag at scrape: median ${(lags[lags.length >> 1] ?? 0).toFixed(1)} ms, worst ${(lags[lags.length - 1] ?? 0).toFixed(1)} ms`,
    `  in flight at the end (idle reading in brackets): ${Object.entries(r.inFlightAtEnd).map(([k, v]) => `${k} ${v} (${r.idleInFlight[k]})`).join(', ')}`,
    ...Object.entries(r.lanes).map(([lane, counts]) => `  ${lane}: ${Object.entries(counts).sort().map(([s, n]) => `${s} ×${n}`).join(', ')}`),
    ...r.verdict.failures.map((f) => `  FAIL: ${f}`),
    ...r.verdict.notes.map((n) => `  note: ${n}`),
    `  samples and chart: ${path.join(outDir, 'soak.json')}, ${path.join(outDir, 'soak.svg')}`,
  ];
  return lines.join('\n') + '\n';
}

main().then(
  (code) => process.exit(code),
  async (err) => {
    say(`failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`);
    await stopAll();
    process.exit(1);
  },
);
