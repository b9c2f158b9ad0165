// Runs inside the bench path's source namespace: a nettools server (`node dist/src/main.js`, its own
// process) and `count` streamed mtrs of `cycles` cycles opened at once against it, all to the path's
// destination. Prints how many ended whole (start, every cycle, a summary that reached the destination
// through every hop), the wall time, the server's CPU over the run and its peak RSS.
import { readFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { parseNdjson, postStream } from '../../test/api/stream-reader';
import { spawnServer, stopServers } from '../../test/support/child-server';
import { readPeakRssKiB } from '../lib/rss';

// The process's user + system CPU in ms (/proc/<pid>/stat, clock ticks of 10 ms).
function cpuMs(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

async function one(base: string, host: string, cycles: number, intervalMs: number, hops: number): Promise<string> {
  try {
    const s = await postStream(base, '/api/tools/mtr', { host, cycles, intervalMs, maxHops: 8, timeoutMs: 1000 }, 'application/x-ndjson');
    await s.ended;
    if (s.status !== 200) return `status ${s.status}`;
    const events = parseNdjson(s);
    const seen = events.filter((e) => e.event === 'cycle').length;
    const last = events.at(-1);
    if (last?.event !== 'summary') return `ended with ${last?.event ?? 'nothing'} after ${seen} cycles`;
    const whole = seen === cycles && last.data.destinationReached === true && last.data.hops.length === hops;
    return whole ? 'whole' : `${seen} cycles, reached ${last.data.destinationReached}, ${last.data.hops.length} hops`;
  } catch (err) {
    return err instanceof Error ? err.message : String(err);
  }
}

async function main(): Promise<void> {
  const [host, countText, cyclesText, intervalText, hopsText] = process.argv.slice(2) as [string, string, string, string, string];
  const [count, cycles, hops] = [Number(countText), Number(cyclesText), Number(hopsText)];
  const server = await spawnServer({
    NETTOOLS_RESOLVERS: 'none=127.0.0.1:9',
    NETTOOLS_ALLOW_PRIVATE_TARGETS: 'true',
    NETTOOLS_RATE_LIMIT: '100000/1s',
    NETTOOLS_TARGET_TRACES_PER_MINUTE: '10000',
    NETTOOLS_MAX_TRACES_IN_FLIGHT: '512',
    NETTOOLS_MAX_IN_FLIGHT_PER_CLIENT: '1000',
  });
  try {
    const pid = server.child.pid as number;
    const cpu0 = cpuMs(pid);
    const t0 = performance.now();
    const outcomes = await Promise.all(Array.from({ length: count }, () => one(server.base, host, cycles, Number(intervalText), hops)));
    const wallMs = performance.now() - t0;
    const serverCpuMs = cpuMs(pid) - cpu0;
    const failures: Record<string, number> = {};
    for (const o of outcomes) if (o !== 'whole') failures[o] = (failures[o] ?? 0) + 1;
    const whole = outcomes.filter((o) => o === 'whole').length;
    process.stdout.write(JSON.stringify({ streams: count, cycles, whole, failures, wallMs, serverCpuMs, serverPeakRssKiB: readPeakRssKiB(pid) }) + '\n');
  } finally {
    await stopServers(server);
  }
}

main().catch((err: unknown) => {
  process.stderr.write(`${err instanceof Error ? err.stack : String(err)}\n`);
  process.exit(1);
});
