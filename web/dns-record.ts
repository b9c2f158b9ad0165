import type { Query } from './dns-agree.js';
import { el } from './dom.js';

// One dns cell's content, built of elements: each record a `.rr` line whose fields are spans named by the
// API's field (data-field, and the name as a tooltip), shaped per type; the types whose numbers say
// little alone (SRV, NAPTR, DS, DNSKEY, TLSA, SVCB, HTTPS) name each field on the line and spell out
// the registry's numbers. Text only: a record's data is never read as markup.

type Field = { field: string; value: string; label?: string };

const ALGORITHMS: Record<number, string> = { 5: 'RSASHA1', 7: 'RSASHA1-NSEC3-SHA1', 8: 'RSASHA256', 10: 'RSASHA512', 13: 'ECDSAP256SHA256', 14: 'ECDSAP384SHA384', 15: 'ED25519', 16: 'ED448' };
const DIGESTS: Record<number, string> = { 1: 'SHA-1', 2: 'SHA-256', 4: 'SHA-384' };
const TLSA_USAGE: Record<number, string> = { 0: 'PKIX-TA', 1: 'PKIX-EE', 2: 'DANE-TA', 3: 'DANE-EE' };
const TLSA_SELECTOR: Record<number, string> = { 0: 'Cert', 1: 'SPKI' };
const TLSA_MATCHING: Record<number, string> = { 0: 'Full', 1: 'SHA-256', 2: 'SHA-512' };
const KEY_FLAGS: Record<number, string> = { 256: 'ZSK', 257: 'KSK' };

const named = (n: number, names: Record<number, string>) => (names[n] !== undefined ? `${n} (${names[n]})` : String(n));
const str = (v: unknown) => (typeof v === 'string' ? v : typeof v === 'number' || typeof v === 'boolean' ? String(v) : JSON.stringify(v));

// A record's fields as the type presents them; `r` is the record as the API shapes it for `type`.
function fields(type: string, r: Record<string, unknown>): Field[] {
  const f = (field: string, value = str(r[field]), label?: string): Field => ({ field, value, ...(label !== undefined ? { label } : {}) });
  const n = (field: string) => Number(r[field]);
  switch (type) {
    case 'TXT':
      return [f('value', `"${str(r['value'])}"`)];
    case 'CNAME':
      return [f('name'), f('target', `→ ${str(r['target'])}`)];
    case 'SRV':
      return [f('priority', undefined, 'priority'), f('weight', undefined, 'weight'), f('port', undefined, 'port'), f('target', undefined, 'target')];
    case 'NAPTR':
      return [f('order', undefined, 'order'), f('preference', undefined, 'pref'), f('flags', `"${str(r['flags'])}"`, 'flags'), f('services', `"${str(r['services'])}"`, 'services'), f('regexp', `"${str(r['regexp'])}"`, 'regexp'), f('replacement', undefined, 'replacement')];
    case 'DS':
      return [f('keyTag', undefined, 'key tag'), f('algorithm', named(n('algorithm'), ALGORITHMS), 'algorithm'), f('digestType', named(n('digestType'), DIGESTS), 'digest type'), f('digest', undefined, 'digest')];
    case 'DNSKEY':
      return [f('flags', named(n('flags'), KEY_FLAGS), 'flags'), f('protocol', undefined, 'protocol'), f('algorithm', named(n('algorithm'), ALGORITHMS), 'algorithm'), f('publicKey', undefined, 'key')];
    case 'TLSA':
      return [f('usage', named(n('usage'), TLSA_USAGE), 'usage'), f('selector', named(n('selector'), TLSA_SELECTOR), 'selector'), f('matchingType', named(n('matchingType'), TLSA_MATCHING), 'matching'), f('data', undefined, 'data')];
    case 'SVCB':
    case 'HTTPS':
      return svcb(r);
    default:
      // A, AAAA, MX, NS, PTR, SOA, CAA: their fields in the order the API gives them (its presentation order).
      return Object.keys(r).filter((k) => k !== 'ttl' && k !== 'validated').map((k) => f(k));
  }
}

function svcb(r: Record<string, unknown>): Field[] {
  const priority = Number(r['priority']);
  const params = (typeof r['params'] === 'object' && r['params'] !== null ? r['params'] : {}) as Record<string, unknown>;
  const list: Field[] = [{ field: 'priority', value: priority === 0 ? '0 (alias)' : String(priority), label: 'priority' }, { field: 'target', value: str(r['target']), label: 'target' }];
  for (const [key, value] of Object.entries(params)) list.push({ field: `params.${key}`, value: value === true ? key : `${key}=${Array.isArray(value) ? value.map(str).join(',') : str(value)}` });
  return list;
}

function recordLine(type: string, record: unknown): HTMLSpanElement {
  const line = el('span', undefined, 'rr');
  const groups = fields(type, record as Record<string, unknown>).map(({ field, value, label }) => {
    const v = el('span', value, 'v');
    v.dataset['field'] = field;
    v.title = field;
    return label !== undefined ? [el('span', `${label} `, 'k'), v] : [v];
  });
  groups.forEach((group, i) => (i > 0 ? line.append(' ', ...group) : line.append(...group)));
  return line;
}

// A record as one line of text, its fields as the cell shows them (the located table's cells are text).
export function recordText(type: string, record: unknown): string {
  return fields(type, record as Record<string, unknown>)
    .map(({ value, label }) => (label !== undefined ? `${label} ${value}` : value))
    .join(' ');
}

// What a cell shows of one resolver's answer: its records a line each, or what it said instead; with
// `dnssec` asked, a last line with the AD flag and how many RRSIGs came.
export function answerNodes(type: string, query: Query, dnssec: boolean): Node[] {
  if ('error' in query) return [document.createTextNode(query.detail !== undefined ? `${query.error}: ${query.detail}` : query.error)];
  const lines: Node[] = [];
  if (query.answers.length === 0) lines.push(document.createTextNode(query.rcode === 'NOERROR' ? 'no records' : query.rcode));
  else {
    if (query.rcode !== 'NOERROR') lines.push(document.createTextNode(query.rcode));
    lines.push(...query.answers.map((r) => recordLine(type, r)));
  }
  if (dnssec) lines.push(dnssecLine(query));
  return lines.flatMap((node, i) => (i === 0 ? [node] : [document.createTextNode('\n'), node]));
}

function dnssecLine(query: Extract<Query, { rcode: string }>): HTMLSpanElement {
  const ad = (query.flags ?? []).includes('ad');
  const sigs = query.rrsigs?.length ?? 0;
  const line = el('span', `${ad ? 'AD' : 'no AD'}, ${sigs} ${sigs === 1 ? 'RRSIG' : 'RRSIGs'}`, 'dnssec');
  line.dataset['ad'] = ad ? 'yes' : 'no';
  line.dataset['rrsigs'] = String(sigs);
  return line;
}
