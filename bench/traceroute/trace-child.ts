// Runs inside the bench path's source namespace: the traceroute tool as the server runs it (no HTTP),
// one trace to warm up (code compiled, sockets' first use), then `rounds` traces one after another, each
// with its wall time and this process's CPU time around it.
import { performance } from 'node:perf_hooks';
import { loadConfig } from '../../src/config/config';
import { openIcmpEngine } from '../../src/tools/icmp-engine';
import { openTraceroute } from '../../src/tools/traceroute/run';
import { CancelSource } from '../../src/util/cancel';
import { withTarget } from '../../src/tools/host-target';
import type { TracerouteRequest } from '../../src/tools/traceroute/types';

async function main(): Promise<void> {
  const [host, roundsText] = process.argv.slice(2) as [string, string];
  const config = loadConfig({ NETTOOLS_RESOLVERS: 'none=127.0.0.1:9', NETTOOLS_ALLOW_PRIVATE_TARGETS: 'true', NETTOOLS_TARGET_TRACES_PER_MINUTE: '10000', NETTOOLS_LOG_LEVEL: 'silent' }, []);
  const icmp = openIcmpEngine();
  const slot = openTraceroute({ config, dns: { unavailable: 'not needed: the host is an IP literal' }, icmp, registry: null });
  if (!('run' in slot)) throw new Error(slot.unavailable);
  const rows = [];
  try {
    for (let i = 0; i <= Number(roundsText); i++) {
      const cpu0 = process.cpuUsage();
      const t0 = performance.now();
      const outcome = await slot.run(withTarget<TracerouteRequest>({ host, maxHops: 30, probesPerHop: 2, timeoutMs: 1000, resolveNames: false, asn: false }), new CancelSource());
      const wallMs = performance.now() - t0;
      const cpu = process.cpuUsage(cpu0);
      if (!outcome.ok) throw new Error(`trace failed: ${outcome.failure.code}`);
      if (i > 0) rows.push({ wallMs, cpuMs: (cpu.user + cpu.system) / 1000, hops: outcome.value.hops.length, reached: outcome.value.destinationReached });
    }
  } finally {
    slot.close();
    if ('pinger' in icmp) icmp.pinger.close();
  }
  process.stdout.write(JSON.stringify(rows) + '\n');
}

main().catch((err: unknown) => {
  process.stderr.write(`${err instanceof Error ? err.stack : String(err)}\n`);
  process.exit(1);
});
