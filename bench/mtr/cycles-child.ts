// Runs inside the bench path's source namespace: the mtr tool as the server runs it (no HTTP), one short
// mtr to the last router to warm up (code compiled, sockets' first use; the parent counts only echoes to
// the destination), then one mtr of `cycles` cycles to the destination, with its wall time and this
// process's CPU time around it.
import { performance } from 'node:perf_hooks';
import { loadConfig } from '../../src/config/config';
import { withTarget } from '../../src/tools/host-target';
import { openIcmpEngine } from '../../src/tools/icmp-engine';
import { openMtr } from '../../src/tools/mtr/run';
import type { MtrRequest } from '../../src/tools/mtr/types';
import { CancelSource } from '../../src/util/cancel';

async function main(): Promise<void> {
  const [warmHost, host, cyclesText, intervalText] = process.argv.slice(2) as [string, string, string, string];
  const config = loadConfig({ NETTOOLS_RESOLVERS: 'none=127.0.0.1:9', NETTOOLS_ALLOW_PRIVATE_TARGETS: 'true', NETTOOLS_TARGET_TRACES_PER_MINUTE: '10000', NETTOOLS_LOG_LEVEL: 'silent' }, []);
  const icmp = openIcmpEngine();
  const slot = openMtr({ config, dns: { unavailable: 'not needed: the host is an IP literal' }, icmp, registry: null });
  if (!('run' in slot)) throw new Error(slot.unavailable);
  const request = (to: string, cycles: number) => withTarget<MtrRequest>({ host: to, cycles, intervalMs: Number(intervalText), maxHops: 30, timeoutMs: 1000, resolveNames: false, asn: false });
  try {
    await slot.run(request(warmHost, 3), new CancelSource());
    const cpu0 = process.cpuUsage();
    const t0 = performance.now();
    const outcome = await slot.run(request(host, Number(cyclesText)), new CancelSource());
    const wallMs = performance.now() - t0;
    const cpu = process.cpuUsage(cpu0);
    if (!outcome.ok) throw new Error(`mtr failed: ${outcome.failure.code}`);
    const r = outcome.value;
    process.stdout.write(JSON.stringify({ wallMs, cpuMs: (cpu.user + cpu.system) / 1000, hops: r.hops.length, reached: r.destinationReached, lossPercent: r.hops.map((h) => h.lossPercent) }) + '\n');
  } finally {
    slot.close();
    if ('pinger' in icmp) icmp.pinger.close();
  }
}

main().catch((err: unknown) => {
  process.stderr.write(`${err instanceof Error ? err.stack : String(err)}\n`);
  process.exit(1);
});
