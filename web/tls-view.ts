import { client, follow } from './api.js';
import type { Here, TlsEvent, TlsRequest, TlsResult } from './client/index.js';
import { byId, el, say } from './dom.js';
import { ms } from './ping-stats.js';
import { wireSection } from './run-form.js';
import { chainTable } from './tls-chain.js';
import { TLS_COLUMNS, tlsFrom } from './tls-from.js';

// The tls section: host, port and an optional server name; one handshake, then its facts (status,
// protocol, cipher, whether the chain verifies and why not) and the chain (tls-chain.ts). With locations
// chosen, one row per location instead (tls-from.ts).

export const TLS_PATH = '/api/tools/tls';

export function startTlsView(): void {
  byId('tls').hidden = false;
  wireSection<Here<TlsRequest>>({ id: 'tls', columns: TLS_COLUMNS, request, here: run, from: tlsFrom });
}

function request(fields: FormData): Here<TlsRequest> {
  const serverName = String(fields.get('serverName') ?? '').trim();
  return { host: String(fields.get('host')).trim(), port: Number(fields.get('port')), ...(serverName !== '' ? { serverName } : {}) };
}

async function run(body: Here<TlsRequest>, status: HTMLElement, signal: AbortSignal): Promise<void> {
  byId('tls-facts').replaceChildren();
  byId('tls-chain-box').replaceChildren();
  say(status, `Connecting to ${body.host} port ${body.port}…`);
  const end = await follow(client.tlsStream(body, { signal }), (e) => onEvent(e, status));
  if (end !== null) say(status, end.text, end.kind);
}

function onEvent(e: TlsEvent, status: HTMLElement): void {
  if (e.event === 'start') say(status, `Handshake with ${e.data.host} (${e.data.address}) port ${e.data.port}…`);
  else if (e.event === 'summary') {
    const r = e.data;
    const target = r.host === r.address ? r.host : `${r.host} (${r.address})`;
    say(status, `Done: ${target} port ${r.port}: ${r.status === 'handshake' ? 'handshake completed' : r.status}.`, r.status === 'handshake' ? 'info' : 'error');
    byId('tls-facts').replaceChildren(...facts(r).map(([term, value, mark]) => fact(term, value, mark)));
    if (r.certificates !== undefined) byId('tls-chain-box').replaceChildren(chainTable(r.certificates));
  }
}

// What the handshake showed, as term, value and a mark for live.css (good or bad) where it judges.
function facts(r: TlsResult): Array<[string, string, string?]> {
  const list: Array<[string, string, string?]> = [['Status', r.code !== undefined ? `${r.status} (${r.code})` : r.status, r.status === 'handshake' ? 'good' : 'bad']];
  if (r.serverName !== null) list.push(['Server name', r.serverName]);
  if (r.protocol !== undefined) list.push(['Protocol', r.protocol]);
  if (r.cipher !== undefined) list.push(['Cipher', r.cipher]);
  if (r.verified !== undefined) list.push(['Verified', r.verified ? 'yes' : `no: ${r.verifyError ?? 'unknown reason'}`, r.verified ? 'good' : 'bad']);
  if (r.timings.handshakeMs !== undefined) list.push(['Handshake (ms)', ms(r.timings.handshakeMs)]);
  return list;
}

function fact(term: string, value: string, mark?: string): HTMLDivElement {
  const box = el('div');
  const dd = el('dd', value);
  dd.dataset['fact'] = term;
  if (mark !== undefined) dd.dataset['verdict'] = mark;
  box.append(el('dt', term), dd);
  return box;
}
