import { client, follow, problemText } from './api.js';
import type { Here, HttpLocatedEvent, HttpRequest, HttpResult } from './client/index.js';
import { say } from './dom.js';
import { answered, outcomeText } from './http-facts.js';
import { LocatedTable, locationsText } from './located-table.js';
import { ms } from './ping-stats.js';

// An http check from several locations: each location's row says how its request went (status or where
// it stopped), how many redirects it followed and how long it took; the verdict says from how many an
// answer came. A row is marked done only for a whole answer below 400.

export const HTTP_COLUMNS = ['Status', 'Redirects', 'First byte (ms)', 'Total (ms)'];

export async function httpFrom(body: Here<HttpRequest>, names: string[], table: LocatedTable, status: HTMLElement, signal: AbortSignal): Promise<void> {
  table.start(names);
  say(status, `Asking ${body.url} from ${locationsText(names.length)}…`);
  const end = await follow(client.httpStream({ ...body, locations: names }, { signal }), (e) => onEvent(e, table, status));
  if (end !== null) say(status, end.text, end.kind);
}

function cells(r: HttpResult): Record<string, string> {
  return {
    Status: outcomeText(r),
    Redirects: String(r.redirects.length),
    'First byte (ms)': ms(r.timings.firstByteMs ?? null),
    'Total (ms)': ms(r.durationMs),
  };
}

function onEvent(e: HttpLocatedEvent, table: LocatedTable, status: HTMLElement): void {
  if (e.event === 'locations') {
    const { reached, of } = e.data.verdict;
    say(status, 'Done.');
    return table.conclude(`Answered from ${reached} of ${locationsText(of)}.`, reached === of);
  }
  const at = e.data.location;
  if (e.event === 'start') table.set(at, { Status: `asking ${e.data.address}` });
  else if (e.event === 'redirect') table.set(at, { Status: `${e.data.status} to ${e.data.location}` });
  else if (e.event === 'summary') table.set(at, cells(e.data), answered(e.data) ? 'done' : 'failed');
  else if (e.event === 'problem') table.set(at, { Status: problemText(e.data) }, 'failed');
}
