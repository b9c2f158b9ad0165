import { BENCH_ZONE, type KnotSet } from '../lib/knot';
import { runDnsperf } from '../lib/dnsperf';
import { say } from '../lib/log';
import type { BenchOptions } from '../lib/options';
import { startServer } from '../lib/servers';
import { roundOrder } from '../lib/pairs';
import { formatCount } from '../lib/stats';
import type { BenchResults, DnsEngineRow, IcmpRow } from '../lib/types';
import { endpointRtt, fpingRtt, iputilsFlood, iputilsRtt } from './icmp-references';
import { measureInChild } from './in-child';
import { medianRun } from './median-run';
import { measureNativeIcmp } from './native';

// A failed run counts 0 queries/s, so the rounds keep their order (medianRun reports the failure itself).
function qpsOf(runs: ReadonlyArray<DnsEngineRow['result']>): number[] {
  return runs.map((r) => (r.ok ? r.queriesPerSecond : 0));
}

// Each engine beside its ceiling and its peer, against the same loopback target, each in a process of
// its own: dnsperf and ping are programs, and the JavaScript engines run in fresh Node processes.
export async function measureEngines(opts: BenchOptions, knot: KnotSet, workDir: string): Promise<BenchResults['engines']> {
  const target = knot.servers[0] as KnotSet['servers'][number];
  const dnsOpts = { address: target.address, port: target.port, name: BENCH_ZONE, durationS: opts.engineDurationS, inFlight: opts.dnsInFlight };
  const roundOpts = { ...dnsOpts, durationS: opts.engineRoundS };
  // The engine and its ceiling take turns, so a slow moment of the shared VM does not fall on one of them.
  const native: Array<DnsEngineRow['result']> = [];
  const ceiling: Array<DnsEngineRow['result']> = [];
  for (let round = 0; round < opts.engineRounds; round++) {
    for (const which of roundOrder(round)) {
      if (which === 'first') native.push(await measureInChild('native', roundOpts));
      else ceiling.push(await runDnsperf({ ...roundOpts, workDir }));
    }
  }
  const dns: DnsEngineRow[] = [];
  dns.push({ name: 'native', runs: native.length, roundQps: qpsOf(native), result: medianRun(native) });
  dns.push({ name: 'dnsperf', runs: ceiling.length, roundQps: qpsOf(ceiling), result: medianRun(ceiling) });
  dns.push({ name: 'node-resolver', result: await measureInChild('node-resolver', dnsOpts) });
  for (const row of dns) say(`dns engine ${row.name}: ${row.result.ok ? `${formatCount(row.result.queriesPerSecond)} q/s` : row.result.unavailable}`);

  const icmp: IcmpRow[] = [];
  icmp.push({ name: 'native', result: await measureNativeIcmp({ durationS: opts.engineDurationS, inFlight: opts.icmpInFlight, rttSamples: opts.rttSamples }) });
  const server = await startServer('nettools', knot.resolversEnv);
  try {
    icmp.push({ name: 'nettools-endpoint', result: await endpointRtt(server.url, Math.ceil(opts.rttSamples / 10)) });
  } finally {
    await server.stop();
  }
  icmp.push({ name: 'iputils-ping', result: await iputilsRtt(opts.rttSamples) });
  icmp.push({ name: 'fping', result: await fpingRtt(opts.rttSamples) });
  icmp.push({ name: 'iputils-ping-flood', result: await iputilsFlood(opts.floodCount, opts.engineDurationS * 2) });
  for (const row of icmp) {
    const r = row.result;
    say(`icmp ${row.name}: ${r.ok ? `${r.echoesPerSecond === null ? '' : `${formatCount(r.echoesPerSecond)} echoes/s `}${r.rttMedianUs === null ? '' : `RTT median ${r.rttMedianUs.toFixed(1)} µs`}` : r.unavailable}`);
  }
  return { dns, icmp };
}
