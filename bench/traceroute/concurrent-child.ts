// Runs inside the bench path's source namespace: one warm-up trace, then one trace to each given host all
// at once, through the traceroute tool as the server runs it (no HTTP). Prints how many ended whole (the
// destination reached, with the expected number of hops), the wall time of the batch and its CPU.
import { performance } from 'node:perf_hooks';
import { loadConfig } from '../../src/config/config';
import { openIcmpEngine } from '../../src/tools/icmp-engine';
import { openTraceroute } from '../../src/tools/traceroute/run';
import { CancelSource } from '../../src/util/cancel';
import { withTarget } from '../../src/tools/host-target';
import type { TracerouteRequest } from '../../src/tools/traceroute/types';

async function main(): Promise<void> {
  const [hostsText, hopsText] = process.argv.slice(2) as [string, string];
  const hosts = hostsText.split(',');
  const config = loadConfig({ NETTOOLS_RESOLVERS: 'none=127.0.0.1:9', NETTOOLS_ALLOW_PRIVATE_TARGETS: 'true', NETTOOLS_TARGET_TRACES_PER_MINUTE: '10000', NETTOOLS_LOG_LEVEL: 'silent' }, []);
  const icmp = openIcmpEngine();
  const slot = openTraceroute({ config, dns: { unavailable: 'not needed: the hosts are IP literals' }, icmp, registry: null });
  if (!('run' in slot)) throw new Error(slot.unavailable);
  const request = (host: string) => withTarget<TracerouteRequest>({ host, maxHops: 30, probesPerHop: 2, timeoutMs: 1000, resolveNames: false, asn: false });
  try {
    await slot.run(request(hosts[0] as string), new CancelSource());
    const cpu0 = process.cpuUsage();
    const t0 = performance.now();
    const outcomes = await Promise.all(hosts.map((host) => slot.run(request(host), new CancelSource())));
    const wallMs = performance.now() - t0;
    const cpu = process.cpuUsage(cpu0);
    const whole = outcomes.filter((o) => o.ok && o.value.destinationReached && o.value.hops.length === Number(hopsText)).length;
    const failures: Record<string, number> = {};
    for (const o of outcomes) if (!o.ok) failures[o.failure.code] = (failures[o.failure.code] ?? 0) + 1;
    process.stdout.write(JSON.stringify({ traces: hosts.length, whole, failures, wallMs, cpuMs: (cpu.user + cpu.system) / 1000 }) + '\n');
  } finally {
    slot.close();
    if ('pinger' in icmp) icmp.pinger.close();
  }
}

main().catch((err: unknown) => {
  process.stderr.write(`${err instanceof Error ? err.stack : String(err)}\n`);
  process.exit(1);
});
