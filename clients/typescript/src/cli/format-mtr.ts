import type { MtrHop, MtrResult } from '../types.js';
import { oneLine } from './terminal.js';

type MtrAddress = MtrHop['addresses'][number];

export interface MtrColumns {
  names: boolean; // --names: `name (address)`, the address standing in for a name not found
  asn: boolean; // --asn: an AS column before the host, as mtr -z prints it
}

export interface MtrHeader {
  host: string;
  address: string;
}

// The line above the table: what was asked, of which server, and how far it got (`3 cycles`, `cycle 2 of 10`).
export function mtrHeader(h: MtrHeader, server: string, progress: string): string {
  return `mtr to ${oneLine(h.host)} (${oneLine(h.address)}) via ${server}, ${progress}`;
}

export const cyclesRun = (n: number) => `${n} cycle${n === 1 ? '' : 's'}`;

const who = (a: MtrAddress, names: boolean) => (names && a.name ? `${oneLine(a.name)} (${oneLine(a.address)})` : oneLine(a.address));
const as = (a: MtrAddress | undefined) => (a?.asn ? `AS${a.asn.number}` : 'AS???');
const ms = (v: number | null) => (v ?? 0).toFixed(1).padStart(6);

// mtr --report's rows: `N.|-- host` then Loss%, Snt, Last, Avg, Best, Wrst, StDev (a hop that never
// answered: ??? and zeros, as mtr prints it); further addresses of a hop on lines of their own below it.
function rows(hop: MtrHop, c: MtrColumns): Array<{ lead: string; host: string; figures: string }> {
  const [first, ...more] = hop.addresses;
  const figures = `${hop.lossPercent.toFixed(1).padStart(5)}%${String(hop.sent).padStart(6)}${ms(hop.lastMs)}${ms(hop.avgMs)}${ms(hop.bestMs)}${ms(hop.worstMs)}${ms(hop.stddevMs)}`;
  const asn = (a: MtrAddress | undefined) => (c.asn ? `${as(a).padEnd(12)} ` : '');
  const top = { lead: `${String(hop.ttl).padStart(3)}.|-- `, host: `${asn(first)}${first === undefined ? '???' : who(first, c.names)}`, figures };
  return [top, ...more.map((a) => ({ lead: '    |  `|-- ', host: `${asn(a)}${who(a, c.names)}`, figures: '' }))];
}

const COLUMNS = ['Loss%', 'Snt', 'Last', 'Avg', 'Best', 'Wrst', 'StDev'].map((c) => c.padStart(6)).join('');

// The table mtr --report prints, the host column as wide as its widest entry.
export function mtrTable(hops: readonly MtrHop[], c: MtrColumns): string[] {
  const all = hops.flatMap((h) => rows(h, c));
  const width = Math.max(20, ...all.map((r) => r.host.length));
  const head = `${' '.repeat(8)}${(c.asn ? `${'AS'.padEnd(12)} Host` : 'Host').padEnd(width)} ${COLUMNS}`;
  return [head, ...all.map((r) => (r.figures === '' ? `${r.lead}${r.host}` : `${r.lead}${r.host.padEnd(width)} ${r.figures}`))];
}

// What `nettools mtr` prints without --watch.
export function formatMtr(result: MtrResult, c: MtrColumns, server: string): string[] {
  return [mtrHeader(result, server, cyclesRun(result.cycles)), ...mtrTable(result.hops, c)];
}

// Why this mtr fails a CI check, or null when the destination answered in some cycle.
export function mtrFailure(result: MtrResult): string | null {
  if (result.destinationReached) return null;
  const n = result.hops.length;
  return `${oneLine(result.host)} (${oneLine(result.address)}) not reached in ${n} hop${n === 1 ? '' : 's'} over ${cyclesRun(result.cycles)}`;
}
