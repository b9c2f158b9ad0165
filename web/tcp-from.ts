import { client, follow, problemText } from './api.js';
import type { Here, TcpLocatedEvent, TcpRequest } from './client/index.js';
import { say } from './dom.js';
import { LocatedTable, locationsText } from './located-table.js';
import { ms, percent } from './ping-stats.js';

// A tcp check from several locations: each location's row counts its attempts as they end, then its
// statistics; the verdict says from how many locations the port accepted a connection.

export const TCP_COLUMNS = ['Status', 'Attempts', 'Connected', 'Avg (ms)', 'Loss'];

export async function tcpFrom(body: Here<TcpRequest>, names: string[], table: LocatedTable, status: HTMLElement, signal: AbortSignal): Promise<void> {
  const made = new Map(names.map((n) => [n, { sent: 0, connected: 0 }]));
  table.start(names);
  say(status, `Connecting to ${body.host} port ${body.port} from ${locationsText(names.length)}…`);
  const end = await follow(client.tcpStream({ ...body, locations: names }, { signal }), (e) => onEvent(e, table, made, status));
  if (end !== null) say(status, end.text, end.kind);
}

function onEvent(e: TcpLocatedEvent, table: LocatedTable, made: Map<string, { sent: number; connected: number }>, status: HTMLElement): void {
  if (e.event === 'locations') {
    const { reached, of } = e.data.verdict;
    say(status, 'Done.');
    return table.conclude(`Connected from ${reached} of ${locationsText(of)}.`, reached === of);
  }
  const at = e.data.location;
  if (e.event === 'start') table.set(at, { Status: `connecting to ${e.data.address}`, Attempts: '0', Connected: '0' });
  else if (e.event === 'attempt') {
    const tally = made.get(at) ?? { sent: 0, connected: 0 };
    tally.sent += 1;
    if (e.data.status === 'connected') tally.connected += 1;
    made.set(at, tally);
    table.set(at, { Attempts: String(tally.sent), Connected: String(tally.connected) });
  } else if (e.event === 'summary') {
    const { connected, attempts, connectMs } = e.data;
    const cells = { Status: connected ? 'connected' : 'not connected', Attempts: String(attempts.sent), Connected: String(attempts.connected), 'Avg (ms)': ms(connectMs?.avg ?? null), Loss: percent(attempts.lossPercent) };
    table.set(at, cells, connected ? 'done' : 'failed');
  } else if (e.event === 'problem') table.set(at, { Status: problemText(e.data) }, 'failed');
}
