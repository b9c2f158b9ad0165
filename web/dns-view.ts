import { agreement, type Agreement, type Query } from './dns-agree.js';
import { answerNodes } from './dns-record.js';
import { limitTypes } from './dns-types.js';
import { byId, el, say } from './dom.js';
import { client, follow } from './api.js';
import type { DnsEvent, DnsRequest, Here, RecordType } from './client/index.js';
import { DNS_COLUMNS, dnsFrom } from './dns-from.js';
import { LocatedTable } from './located-table.js';
import { chosenLocations } from './locations-picker.js';

// The dns section: a table with one row per resolver and one column per type, each cell filled as that
// resolver's answer lands, and a last row saying per type whether the resolvers agree so far. With
// locations chosen, one row per location instead (dns-from.ts).

interface Table {
  dnssec: boolean; // asked: each cell shows the AD flag and the RRSIGs
  types: string[];
  resolvers: string[];
  answers: Map<string, Query[]>; // per type, in arrival order
}

const VERDICT: Record<Agreement, string> = { waiting: 'waiting…', agree: 'agree', differ: 'differ', unknown: 'fewer than two answers' };

export function startDnsView(): void {
  const form = byId<HTMLFormElement>('dns-form');
  const status = byId('dns-status');
  const located = new LocatedTable(byId('dns'), byId<HTMLTableElement>('dns-located'), byId('dns-located-verdict'), DNS_COLUMNS);
  let running = false;
  limitTypes(form);
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    if (running) return;
    running = true;
    byId<HTMLButtonElement>('dns-run').disabled = true;
    const names = chosenLocations();
    if (names.length === 0) located.stop();
    const body = request(form);
    void (names.length > 0 ? dnsFrom(body, names, located, status) : run(body, status)).finally(() => {
      running = false;
      byId<HTMLButtonElement>('dns-run').disabled = false;
    });
  });
}

function request(form: HTMLFormElement): Here<DnsRequest> {
  const fields = new FormData(form);
  // The form's boxes are the API's record types; the server checks what it is sent all the same.
  const types = fields.getAll('type').map(String) as RecordType[];
  const dnssec = fields.get('dnssec') !== null;
  return { domain: String(fields.get('domain')).trim(), ...(types.length > 0 ? { types } : {}), ...(dnssec ? { dnssec } : {}) };
}

async function run(body: Here<DnsRequest>, status: HTMLElement): Promise<void> {
  const table: Table = { dnssec: body.dnssec === true, types: [], resolvers: [], answers: new Map() };
  byId('dns-table').replaceChildren();
  byId('dns-verdict').textContent = '';
  say(status, `Asking about ${body.domain}…`);
  const end = await follow(client.dnsStream(body), (e) => onEvent(e, table, status));
  if (end !== null) say(status, end.text, 'error');
}

function onEvent(e: DnsEvent, table: Table, status: HTMLElement): void {
  if (e.event === 'start') {
    table.types = e.data.types;
    table.resolvers = e.data.resolvers.map((r) => r.id);
    drawTable(table, e.data.resolvers);
  } else if (e.event === 'answer') {
    const { resolver, type, query } = e.data;
    const cell = document.querySelector<HTMLElement>(`[data-resolver="${CSS.escape(resolver)}"][data-type="${CSS.escape(type)}"]`);
    if (cell !== null) {
      cell.replaceChildren(...answerNodes(type, query, table.dnssec));
      cell.classList.add('answered');
    }
    table.answers.set(type, [...(table.answers.get(type) ?? []), query]);
    showAgreement(table, type);
  } else if (e.event === 'summary') {
    say(status, `Done: answers for ${e.data.domain} in ${Math.round(e.data.durationMs)} ms.`); // the name whole: its field may cut it
    byId('dns-verdict').textContent = e.data.consistent ? 'The resolvers agree on every type.' : 'The resolvers disagree.';
  }
}

function showAgreement(table: Table, type: string): void {
  const verdict = agreement(type, table.answers.get(type) ?? [], table.resolvers.length);
  const cell = document.querySelector<HTMLElement>(`[data-agree="${CSS.escape(type)}"]`);
  if (cell === null) return;
  cell.textContent = VERDICT[verdict];
  cell.dataset['verdict'] = verdict;
}

function drawTable(table: Table, resolvers: Array<{ id: string; address: string }>): void {
  const head = el('tr');
  head.append(el('th', 'Resolver'), ...table.types.map((t) => el('th', t)));
  const rows = resolvers.map(({ id, address }) => {
    const name = rowHeader(`${id} `);
    name.append(el('span', address, 'address'));
    return row(name, table.types.map((type) => cell('…', { resolver: id, type })));
  });
  const agree = row(rowHeader('Agree?'), table.types.map((type) => cell(VERDICT.waiting, { agree: type })));
  agree.className = 'agreement';
  const thead = el('thead');
  thead.append(head);
  const tbody = el('tbody');
  tbody.append(...rows, agree);
  byId('dns-table').replaceChildren(thead, tbody);
}

function rowHeader(text: string): HTMLTableCellElement {
  const th = el('th', text);
  th.scope = 'row';
  return th;
}

function cell(text: string, data: Record<string, string>): HTMLTableCellElement {
  const td = el('td', text);
  Object.assign(td.dataset, data);
  return td;
}

function row(header: HTMLElement, cells: HTMLElement[]): HTMLTableRowElement {
  const tr = el('tr');
  tr.append(header, ...cells);
  return tr;
}
