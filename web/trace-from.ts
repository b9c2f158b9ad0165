import { client, follow, problemText } from './api.js';
import type { TracerouteHop, TracerouteLocatedEvent } from './client/index.js';
import { say } from './dom.js';
import { LocatedTable, locationsText } from './located-table.js';
import { traceVerdict } from './trace-verdict.js';

// A trace from several locations: each location's row counts its hops and shows the last one as it
// arrives, then that location's verdict.

export const TRACE_COLUMNS = ['Status', 'Hops', 'Last hop'];

export async function traceFrom(host: string, names: string[], table: LocatedTable, status: HTMLElement, signal: AbortSignal): Promise<void> {
  table.start(names);
  say(status, `Tracing the path to ${host} from ${locationsText(names.length)}…`);
  const end = await follow(client.tracerouteStream({ host, locations: names }, { signal }), (e) => onEvent(e, table, status));
  if (end !== null) say(status, end.text, end.kind);
}

function hopText(hop: TracerouteHop): string {
  const answered = hop.probes.find((p) => !('status' in p));
  return answered !== undefined && 'address' in answered ? `${hop.ttl}  ${answered.address}` : `${hop.ttl}  *`;
}

function onEvent(e: TracerouteLocatedEvent, table: LocatedTable, status: HTMLElement): void {
  if (e.event === 'locations') {
    const { reached, of } = e.data.verdict;
    say(status, 'Done.');
    return table.conclude(`Reached from ${reached} of ${locationsText(of)}.`, reached === of);
  }
  const at = e.data.location;
  if (e.event === 'start') table.set(at, { Status: `tracing ${e.data.address}`, Hops: '0' });
  else if (e.event === 'hop') table.set(at, { Hops: String(e.data.ttl), 'Last hop': hopText(e.data) });
  else if (e.event === 'summary') {
    const { reached, text } = traceVerdict(e.data);
    table.set(at, { Status: text, Hops: String(e.data.hops.length) }, reached ? 'done' : 'failed');
  } else if (e.event === 'problem') table.set(at, { Status: problemText(e.data) }, 'failed');
}
