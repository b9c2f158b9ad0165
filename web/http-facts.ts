import type { HttpResult } from './client/index.js';
import { el } from './dom.js';

// What an http check showed, as the facts list's terms and values, and how far an exchange without a
// whole answer got (shared with the per-location table, http-from.ts).

export type Fact = [term: string, value: string, mark?: 'good' | 'bad'];

// The answer's status, or where the exchange stopped: "connect refused (ECONNREFUSED)".
export function outcomeText(r: HttpResult): string {
  const stage = r.connect !== undefined ? `connect ${r.connect}` : r.handshake !== undefined ? `handshake ${r.handshake}` : r.response !== undefined ? `response ${r.response}` : null;
  const failure = stage === null ? null : r.code !== undefined ? `${stage} (${r.code})` : stage;
  if (r.status === undefined) return failure ?? 'no answer';
  return failure === null ? String(r.status) : `${r.status}, ${failure}`;
}

// A whole answer below 400 is good; an error status, or an exchange that ended early, is not.
export function answered(r: HttpResult): boolean {
  return r.status !== undefined && r.status < 400 && r.response === undefined;
}

export function httpFacts(r: HttpResult): Fact[] {
  const list: Fact[] = [['Status', outcomeText(r), answered(r) ? 'good' : 'bad']];
  if (r.httpVersion !== undefined) list.push(['HTTP version', r.httpVersion]);
  list.push(['Final URL', r.finalUrl], ['Address', `${r.address} port ${r.port}`]);
  if (r.location !== undefined) list.push(['Location (not followed)', r.location]);
  if (r.body !== undefined) {
    list.push(['Body', `${r.body.bytes} bytes${r.body.truncated ? ', truncated at the cap' : ''}`]);
    list.push(['SHA-256', r.body.sha256]);
  }
  if (r.tls !== undefined) {
    list.push(['TLS protocol', r.tls.protocol], ['Cipher', r.tls.cipher]);
    list.push(['Verified', r.tls.verified ? 'yes' : `no: ${r.tls.verifyError ?? 'unknown reason'}`, r.tls.verified ? 'good' : 'bad']);
  }
  return list;
}

export function factItem([term, value, mark]: Fact): HTMLDivElement {
  const box = el('div');
  const dd = el('dd', value);
  dd.dataset['fact'] = term;
  if (mark !== undefined) dd.dataset['verdict'] = mark;
  box.append(el('dt', term), dd);
  return box;
}

// The answer's headers as the check kept them (names lower-cased, at most 64), name and value as text.
export function headerRows(headers: Record<string, string>): HTMLTableRowElement[] {
  return Object.entries(headers).map(([name, value]) => {
    const row = el('tr');
    row.dataset['header'] = name;
    row.append(el('th', name), el('td', value));
    return row;
  });
}
