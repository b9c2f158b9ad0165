import type { TracerouteHop, TracerouteProbe, TracerouteResult } from '../types.js';
import { oneLine } from './terminal.js';

type Answered = Extract<TracerouteProbe, { address: string }>;
const answered = (p: TracerouteProbe): p is Answered => 'address' in p;

// Debian traceroute's marks for an answer that is neither Time Exceeded in transit nor an echo reply
// (its parse_icmp_res): unreachable codes by family, `!<type-code>` for anything it has no letter for.
const V4_UNREACHABLE: Record<number, string> = { 0: '!N', 1: '!H', 2: '!P', 3: '', 4: '!F', 5: '!S', 6: '!N', 7: '!H', 8: '!N', 9: '!X', 10: '!X', 11: '!N', 12: '!H', 13: '!X', 14: '!V', 15: '!C' };
const V6_UNREACHABLE: Record<number, string> = { 0: '!N', 1: '!X', 2: '!H', 3: '!H', 4: '' };

// Time Exceeded in transit: the answer of a router on the way.
const exceeded = ({ type, code }: Answered['icmp'], family: 4 | 6) => code === 0 && type === (family === 4 ? 11 : 3);

export function mark(icmp: Answered['icmp'], family: 4 | 6): string {
  const { type, code } = icmp;
  if (exceeded(icmp, family)) return '';
  if (family === 4) {
    if (type === 0) return '';
    if (type === 3) return V4_UNREACHABLE[code] ?? `!<${code}>`;
  } else {
    if (type === 129) return '';
    if (type === 1) return V6_UNREACHABLE[code] ?? `!<${code}>`;
    if (type === 2) return '!F';
  }
  return `!<${type}-${code}>`;
}

export interface TraceHeader {
  host: string;
  address: string;
  maxHops: number;
  probesPerHop: number;
}

// traceroute's first line, with the server that measured.
export function traceHeader(h: TraceHeader, server: string): string {
  return `traceroute to ${oneLine(h.host)} (${oneLine(h.address)}) via ${server}, ${h.maxHops} hops max, ${h.probesPerHop} probe${h.probesPerHop === 1 ? '' : 's'} per hop`;
}

// Who answered, as traceroute writes it: with names (--names), `name (address)`, the address standing in
// for a name the server did not find; without, the address alone, as `traceroute -n`. The server names the
// hop's first answering address only.
// With --asn, the first answering address's origin AS follows it, as traceroute -A writes it.
function who(hop: TracerouteHop, address: string, names: boolean, asn: boolean): string {
  const first = hop.probes.find(answered)?.address;
  const as = asn && address === first ? ` [${hop.asn ? `AS${hop.asn.number}` : 'AS???'}]` : '';
  if (!names) return `${oneLine(address)}${as}`;
  return `${oneLine(address === first && hop.name ? hop.name : address)} (${oneLine(address)})${as}`;
}

// One hop as traceroute prints it: the TTL, each probe's time or `*`, who answered before the first probe
// it answered and again whenever another address answers, and the mark after a probe's time.
export function hopLine(hop: TracerouteHop, family: 4 | 6, names = false, asn = false): string {
  let line = `${String(hop.ttl).padStart(2)} `;
  let previous: string | null = null;
  for (const probe of hop.probes) {
    if (!answered(probe)) {
      line += ' *';
      continue;
    }
    if (probe.address !== previous) line += ` ${who(hop, probe.address, names, asn)}`;
    previous = probe.address;
    const m = mark(probe.icmp, family);
    line += `  ${probe.rttMs.toFixed(3)} ms${m === '' ? '' : ` ${m}`}`;
  }
  return line;
}

// What `nettools trace` prints without --watch. The result does not repeat the settings: the header
// takes them from the request, or the server's defaults (30 hops, 2 probes).
export function formatTrace(result: TracerouteResult, settings: { maxHops?: number | undefined; probesPerHop?: number | undefined; resolveNames?: boolean | undefined; asn?: boolean | undefined }, server: string): string[] {
  const header = { host: result.host, address: result.address, maxHops: settings.maxHops ?? 30, probesPerHop: settings.probesPerHop ?? 2 };
  return [traceHeader(header, server), ...result.hops.map((h) => hopLine(h, result.ipVersion, settings.resolveNames === true, settings.asn === true))];
}

// Why this trace fails a CI check, or null when the destination answered. A trace that was not reached
// yet ended on an answer other than Time Exceeded was refused on the way (admin-prohibited and such).
export function traceFailure(result: TracerouteResult): string | null {
  if (result.destinationReached) return null;
  const last = result.hops.at(-1);
  const refusal = last?.probes.find((p): p is Answered => answered(p) && !exceeded(p.icmp, result.ipVersion));
  const target = `${oneLine(result.host)} (${oneLine(result.address)})`;
  if (refusal !== undefined) return `${target} not reached: ${oneLine(refusal.address)} answered ${oneLine(refusal.icmp.name)} at hop ${last!.ttl}`;
  return `${target} not reached in ${result.hops.length} hop${result.hops.length === 1 ? '' : 's'}`;
}
