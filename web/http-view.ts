import { client, follow } from './api.js';
import type { Here, HttpEvent, HttpRequest, HttpResult } from './client/index.js';
import { byId, say } from './dom.js';
import { factItem, headerRows, httpFacts } from './http-facts.js';
import { HTTP_COLUMNS, httpFrom } from './http-from.js';
import { hopRow, phaseRows } from './http-phases.js';
import { wireSection } from './run-form.js';
import { chainTable } from './tls-chain.js';

// The http section: a URL, GET or HEAD and how many redirects to follow; each redirect as it is
// followed, then the answer's facts, its phases, its headers and for https the chain (tls-chain.ts).
// With locations chosen, one row per location instead (http-from.ts).

export const HTTP_PATH = '/api/tools/http';

export function startHttpView(): void {
  byId('http').hidden = false;
  wireSection<Here<HttpRequest>>({ id: 'http', columns: HTTP_COLUMNS, request, here: run, from: httpFrom });
}

function request(fields: FormData): Here<HttpRequest> {
  const method = fields.get('method') === 'HEAD' ? 'HEAD' : 'GET';
  return { url: String(fields.get('url')).trim(), method, followRedirects: Number(fields.get('followRedirects')) };
}

async function run(body: Here<HttpRequest>, status: HTMLElement, signal: AbortSignal): Promise<void> {
  show(null);
  byId('http-hops').replaceChildren();
  say(status, `Asking ${body.url}…`);
  const end = await follow(client.httpStream(body, { signal }), (e) => onEvent(e, status));
  if (end !== null) say(status, end.text, end.kind);
}

function onEvent(e: HttpEvent, status: HTMLElement): void {
  if (e.event === 'start') say(status, `${e.data.method} ${e.data.url} at ${e.data.address} port ${e.data.port}…`);
  else if (e.event === 'redirect') {
    const hops = byId('http-hops');
    hops.append(hopRow(e.data, hops.children.length));
    say(status, `${e.data.status} to ${e.data.location}…`);
  } else if (e.event === 'summary') {
    const r = e.data;
    const redirects = r.redirects.length === 0 ? '' : `, after ${r.redirects.length} ${r.redirects.length === 1 ? 'redirect' : 'redirects'}`;
    const got = r.status !== undefined && r.response === undefined;
    say(status, `Done: ${r.finalUrl} ${got ? `answered ${r.status}` : 'gave no whole answer'}${redirects}.`, got ? 'info' : 'error');
    byId('http-hops').replaceChildren(...r.redirects.map(hopRow));
    show(r);
  }
}

function show(r: HttpResult | null): void {
  byId('http-facts').replaceChildren(...(r === null ? [] : httpFacts(r).map(factItem)));
  byId('http-phases').replaceChildren(...(r === null ? [] : phaseRows(r.timings)));
  byId('http-headers').replaceChildren(...(r?.headers === undefined ? [] : headerRows(r.headers)));
  byId('http-chain-box').replaceChildren(...(r?.tls === undefined ? [] : [chainTable(r.tls.certificates, 'http-chain')]));
}
