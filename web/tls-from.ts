import { client, follow, problemText } from './api.js';
import type { Here, TlsLocatedEvent, TlsRequest, TlsResult } from './client/index.js';
import { say } from './dom.js';
import { LocatedTable, locationsText } from './located-table.js';
import { daysText } from './tls-chain.js';

// A tls check from several locations: each location's row says how its handshake went, whether the chain
// verified there and how long the leaf has left; the verdict says from how many the handshake completed.
// A row is marked done only when the chain verified: a handshake with a certificate that does not is a
// finding, not a success.

export const TLS_COLUMNS = ['Status', 'Protocol', 'Verified', 'Leaf'];

export async function tlsFrom(body: Here<TlsRequest>, names: string[], table: LocatedTable, status: HTMLElement, signal: AbortSignal): Promise<void> {
  table.start(names);
  say(status, `Handshake with ${body.host} port ${body.port} from ${locationsText(names.length)}…`);
  const end = await follow(client.tlsStream({ ...body, locations: names }, { signal }), (e) => onEvent(e, table, status));
  if (end !== null) say(status, end.text, end.kind);
}

function cells(r: TlsResult): Record<string, string> {
  const leaf = r.certificates?.[0];
  return {
    Status: r.code !== undefined ? `${r.status} (${r.code})` : r.status,
    Protocol: r.protocol ?? '–',
    Verified: r.verified === undefined ? '–' : r.verified ? 'yes' : `no: ${r.verifyError ?? 'unknown reason'}`,
    Leaf: leaf === undefined ? '–' : `${leaf.subject ?? '(no CN)'}, ${daysText(leaf.daysLeft)}`,
  };
}

function onEvent(e: TlsLocatedEvent, table: LocatedTable, status: HTMLElement): void {
  if (e.event === 'locations') {
    const { reached, of } = e.data.verdict;
    say(status, 'Done.');
    return table.conclude(`Handshake completed from ${reached} of ${locationsText(of)}.`, reached === of);
  }
  const at = e.data.location;
  if (e.event === 'start') table.set(at, { Status: `connecting to ${e.data.address}` });
  else if (e.event === 'summary') table.set(at, cells(e.data), e.data.status === 'handshake' && e.data.verified === true ? 'done' : 'failed');
  else if (e.event === 'problem') table.set(at, { Status: problemText(e.data) }, 'failed');
}
