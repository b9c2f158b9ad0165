import { client, follow, problemText } from './api.js';
import type { Here, MtrHop, MtrLocatedEvent, MtrRequest } from './client/index.js';
import { say } from './dom.js';
import { LocatedTable, locationsText } from './located-table.js';

// An mtr from several locations: each location's row shows, after each of its cycles, how far its path
// goes and the last hop's loss and average, then whether it reached the host.

export const MTR_COLUMNS = ['Status', 'Cycles', 'Hops', 'Last hop', 'Loss%', 'Avg'];

export async function mtrFrom(request: Here<MtrRequest>, names: string[], table: LocatedTable, status: HTMLElement, signal: AbortSignal): Promise<void> {
  table.start(names);
  say(status, `Probing the path to ${request.host} from ${locationsText(names.length)}…`);
  const end = await follow(client.mtrStream({ ...request, locations: names }, { signal }), (e) => onEvent(e, table, status));
  if (end !== null) say(status, end.text, end.kind);
}

function lastHop(hops: readonly MtrHop[]): Record<string, string> {
  const hop = hops[hops.length - 1];
  if (hop === undefined) return { Hops: '0' };
  const host = hop.addresses.map((a) => a.address).join(', ') || '???';
  return { Hops: String(hop.ttl), 'Last hop': host, 'Loss%': `${hop.lossPercent.toFixed(1)}%`, Avg: hop.avgMs === null ? '–' : hop.avgMs.toFixed(1) };
}

function onEvent(e: MtrLocatedEvent, table: LocatedTable, status: HTMLElement): void {
  if (e.event === 'locations') {
    const { reached, of } = e.data.verdict;
    say(status, 'Done.');
    return table.conclude(`Reached from ${reached} of ${locationsText(of)}.`, reached === of);
  }
  const at = e.data.location;
  if (e.event === 'start') table.set(at, { Status: `probing ${e.data.address}`, Cycles: '0' });
  else if (e.event === 'cycle') table.set(at, { Cycles: String(e.data.cycle), ...lastHop(e.data.hops) });
  else if (e.event === 'summary') {
    const reached = e.data.destinationReached;
    table.set(at, { Status: reached ? 'reached' : 'not reached', Cycles: String(e.data.cycles), ...lastHop(e.data.hops) }, reached ? 'done' : 'failed');
  } else if (e.event === 'problem') table.set(at, { Status: problemText(e.data) }, 'failed');
}
