// HTTP bench: how the phase timings nettools' http check reports compare with curl's `-w` timings for the
// same URL of a private nginx on loopback, over http and https (a test CA made for the run); then what one
// check costs the server's CPU under a bounded wrk load (checks per second per core). Everything it sends
// stays on loopback; every URL is an IP literal, so nothing is resolved.
// node dist/bench/http/run.js [--rounds N] [--per-round N] [--pace-ms N] [--seconds N] [--connections N]
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { loadChecks, loadLine, startLoadServer, type CheckLoad } from '../lib/check-load';
import { countOption } from '../lib/options';
import { runBench } from '../lib/children';
import { comparePhases, PHASE_TARGET_RATIO, type PhaseComparison } from '../lib/http-stats';
import { httpChecksByOutcome } from '../lib/tcp-stats';
import { measureOverhead } from './overhead';
import { BODY_BYTES, startBenchSites } from './sites';

const option = (name: string, fallback: number) => countOption(process.argv, name, fallback);

const us = (x: number) => `${x.toFixed(1)} µs`;
const ratio = (r: number | null) => (r === null ? 'n/a' : r.toFixed(3));

function printComparison(scheme: string, rows: PhaseComparison[]): void {
  for (const c of rows) {
    console.log(`${scheme} ${c.phase}: nettools p50 ${us(c.nettools.p50Us)} p99 ${us(c.nettools.p99Us)} | curl p50 ${us(c.curl.p50Us)} p99 ${us(c.curl.p99Us)} | ratio p50 ${ratio(c.p50Ratio)} p99 ${ratio(c.p99Ratio)} (p50 at most ${PHASE_TARGET_RATIO * 100} % over curl: ${c.met ? 'met' : 'not met'}; ${c.nettools.count} samples each)`);
  }
}


async function main(): Promise<void> {
  const rounds = option('--rounds', 10);
  const perRound = option('--per-round', 50);
  const paceMs = countOption(process.argv, '--pace-ms', 2, 0);
  const seconds = option('--seconds', 5);
  const connections = option('--connections', 32);
  const loadavg = readFileSync('/proc/loadavg', 'utf8').trim();
  const sites = await startBenchSites();
  const server = await startLoadServer({ NETTOOLS_TLS_CA_FILE: sites.caFile });
  try {
    const results = [];
    for (const [scheme, ports] of [['http', sites.http], ['https', sites.https]] as const) {
      const measured = await measureOverhead(server, `${scheme}://127.0.0.1:${ports[0]}/`, sites.caFile, rounds, perRound, { paceMs });
      const comparison = comparePhases(measured.nettools, measured.curl);
      printComparison(scheme, comparison);
      const checks: CheckLoad = { tool: 'http', body: `{"url":"${scheme}://127.0.0.1:{port}/","timeoutMs":5000}`, ports, outcomes: httpChecksByOutcome, counted: 'answered', durationS: 1, connections };
      // Not counted: the first checks under load grow the server's heap and compile its hot paths.
      await loadChecks(server, checks);
      const load = await loadChecks(server, { ...checks, durationS: seconds });
      console.log(loadLine(scheme, load, 'checks'));
      results.push({ scheme, comparison, load });
    }
    const out = path.join(__dirname, '..', '..', '..', 'bench', 'results');
    mkdirSync(out, { recursive: true });
    writeFileSync(path.join(out, `http-${new Date().toISOString().replace(/[:.]/g, '-')}.json`), JSON.stringify({ at: new Date().toISOString(), loadavg, loadavgAfter: readFileSync('/proc/loadavg', 'utf8').trim(), nproc: Number(execFileSync('nproc', { encoding: 'utf8' })), bodyBytes: BODY_BYTES, rounds, perRound, paceMs, seconds, connections, results }, null, 2) + '\n');
  } finally {
    await server.stop();
    await sites.stop();
  }
}

runBench(main);
