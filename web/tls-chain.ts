import type { TlsCertificate } from './client/index.js';
import { el } from './dom.js';

// The certificate chain as a table, leaf first: subject, issuer, end of validity and days left, each
// row marked by how near its end is (live.css colours `expiring` and `expired`).

// Fewer days left than this and a certificate is about to end: the two weeks a renewal job leaves itself.
export const FEW_DAYS = 14;

export type Validity = 'ok' | 'expiring' | 'expired';

export function validity(daysLeft: number): Validity {
  return daysLeft < 0 ? 'expired' : daysLeft < FEW_DAYS ? 'expiring' : 'ok';
}

// daysLeft is rounded down, so -2 may mean an hour over one day past the end: an expired certificate
// says so, and its `Not after` says since when.
export function daysText(daysLeft: number): string {
  if (daysLeft < 0) return 'expired';
  return `${daysLeft} ${daysLeft === 1 ? 'day' : 'days'} left`;
}

// `id`: the section's own (the tls and http sections each show a chain); live.css styles the class.
export function chainTable(certificates: readonly TlsCertificate[], id = 'tls-chain'): HTMLTableElement {
  const head = el('tr');
  head.append(...['#', 'Subject', 'Issuer', 'Not after', 'Days left'].map((h) => el('th', h)));
  const thead = el('thead');
  thead.append(head);
  const tbody = el('tbody');
  tbody.append(...certificates.map(certificateRow));
  const table = el('table');
  table.id = id;
  table.className = 'chain';
  table.setAttribute('aria-label', 'Certificate chain, leaf first');
  table.append(thead, tbody);
  return table;
}

function certificateRow(cert: TlsCertificate, index: number): HTMLTableRowElement {
  const row = el('tr');
  row.dataset['validity'] = validity(cert.daysLeft);
  const cells: Array<[string, string]> = [
    ['#', String(index)],
    ['Subject', cert.subject ?? '(no CN)'],
    ['Issuer', cert.issuer ?? '(no CN)'],
    ['Not after', cert.notAfter.replace('T', ' ').replace(/\.\d+Z$|Z$/, ' UTC')],
    ['Days left', daysText(cert.daysLeft)],
  ];
  row.append(...cells.map(([label, text]) => Object.assign(el('td', text), { title: label })));
  const days = row.cells[4];
  if (days !== undefined) days.className = 'days';
  return row;
}
