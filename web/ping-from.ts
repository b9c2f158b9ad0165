import { client, follow, problemText } from './api.js';
import type { Here, PingLocatedEvent, PingRequest } from './client/index.js';
import { say } from './dom.js';
import { LocatedTable, locationsText } from './located-table.js';
import { ms, percent, PingStats } from './ping-stats.js';

// A ping from several locations: each location's row keeps its figures as its echoes arrive.

export const PING_COLUMNS = ['Status', 'Sent', 'Received', 'Avg (ms)', 'Loss'];

export async function pingFrom(body: Here<PingRequest>, names: string[], table: LocatedTable, status: HTMLElement, signal: AbortSignal): Promise<void> {
  const stats = new Map(names.map((n) => [n, new PingStats()]));
  table.start(names);
  say(status, `Pinging ${body.host} from ${locationsText(names.length)}…`);
  const end = await follow(client.pingStream({ ...body, locations: names }, { signal }), (e) => onEvent(e, table, stats, status));
  if (end !== null) say(status, end.text, end.kind);
}

function onEvent(e: PingLocatedEvent, table: LocatedTable, stats: Map<string, PingStats>, status: HTMLElement): void {
  if (e.event === 'locations') {
    const { reached, of } = e.data.verdict;
    say(status, 'Done.');
    return table.conclude(`Reached from ${reached} of ${locationsText(of)}.`, reached === of);
  }
  const at = e.data.location;
  if (e.event === 'start') table.set(at, { Status: `pinging ${e.data.address}` });
  else if (e.event === 'reply') {
    stats.get(at)?.add(e.data);
    const f = stats.get(at)?.figures();
    if (f !== undefined) table.set(at, { Sent: String(f.sent), Received: String(f.received), 'Avg (ms)': ms(f.avgMs), Loss: percent(f.lossPercent) });
  } else if (e.event === 'summary') {
    const { packets, rtt, reachable } = e.data;
    const cells = { Status: reachable ? 'reached' : 'not reached', Sent: String(packets.sent), Received: String(packets.received), 'Avg (ms)': ms(rtt?.avgMs ?? null), Loss: percent(packets.lossPercent) };
    table.set(at, cells, reachable ? 'done' : 'failed');
  } else if (e.event === 'problem') table.set(at, { Status: problemText(e.data) }, 'failed');
}
