import { client, follow } from './api.js';
import type { Here, TcpEvent, TcpRequest } from './client/index.js';
import { byId, el, say } from './dom.js';
import { ms, percent } from './ping-stats.js';
import { wireSection } from './run-form.js';
import { TCP_COLUMNS, tcpFrom } from './tcp-from.js';

// The tcp section: host, port and count; a row per connection attempt as its event arrives, then the
// statistics from the summary. With locations chosen, one row per location instead (tcp-from.ts).

export const TCP_PATH = '/api/tools/tcp';

type Attempt = Extract<TcpEvent, { event: 'attempt' }>['data'];
// A stream's summary: the JSON body, but a stream of more than 10 attempts leaves `results` out.
type Summary = Extract<TcpEvent, { event: 'summary' }>['data'];

export function startTcpView(): void {
  byId('tcp').hidden = false;
  wireSection<Here<TcpRequest>>({ id: 'tcp', columns: TCP_COLUMNS, request, here: run, from: tcpFrom });
}

function request(fields: FormData): Here<TcpRequest> {
  return { host: String(fields.get('host')).trim(), port: Number(fields.get('port')), count: Number(fields.get('count')) };
}

async function run(body: Here<TcpRequest>, status: HTMLElement, signal: AbortSignal): Promise<void> {
  byId('tcp-attempts').replaceChildren();
  showFigures(null);
  say(status, `Connecting to ${body.host} port ${body.port}…`);
  const end = await follow(client.tcpStream(body, { signal }), (e) => onEvent(e, status));
  if (end !== null) say(status, end.text, end.kind);
}

function onEvent(e: TcpEvent, status: HTMLElement): void {
  if (e.event === 'start') say(status, `Connecting to ${e.data.host} (${e.data.address}) port ${e.data.port}, ${e.data.count} attempts…`);
  else if (e.event === 'attempt') byId('tcp-attempts').append(attemptRow(e.data));
  else if (e.event === 'summary') {
    const { host, address, port, attempts } = e.data;
    const target = host === address ? host : `${host} (${address})`;
    say(status, `Done: ${target} port ${port} accepted ${attempts.connected} of ${attempts.sent} connections.`);
    showFigures(e.data);
  }
}

function attemptRow(attempt: Attempt): HTMLTableRowElement {
  const row = el('tr');
  row.dataset['seq'] = String(attempt.seq);
  row.dataset['status'] = attempt.status;
  const time = attempt.connectMs !== undefined ? `${ms(attempt.connectMs)} ms` : (attempt.errno ?? '–');
  row.append(el('td', String(attempt.seq)), el('td', attempt.status), el('td', time));
  return row;
}

function showFigures(result: Summary | null): void {
  byId('tcp-sent').textContent = result === null ? '0' : String(result.attempts.sent);
  byId('tcp-connected').textContent = result === null ? '0' : String(result.attempts.connected);
  byId('tcp-min').textContent = ms(result?.connectMs?.min ?? null);
  byId('tcp-avg').textContent = ms(result?.connectMs?.avg ?? null);
  byId('tcp-max').textContent = ms(result?.connectMs?.max ?? null);
  byId('tcp-loss').textContent = percent(result?.attempts.lossPercent ?? null);
}
