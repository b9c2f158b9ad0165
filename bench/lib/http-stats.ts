// The http bench's numbers: curl's `-w` line read into per-phase durations that match nettools' phases,
// and each phase's p50 and p99 on both sides with their ratio against the target.
import { spread, type Spread } from './tcp-stats';

// How far nettools' phase may be from curl's, as a ratio, at p50 and at p99: within 5 % either way.
export const PHASE_TARGET_RATIO = 0.05;

export const PHASES = ['connect', 'tls', 'firstByte', 'request', 'transfer', 'total'] as const;
export type Phase = (typeof PHASES)[number];
export type PhaseTimes = Partial<Record<Phase, number>>; // µs; tls only for https

// What the bench writes with `-w`: curl's cumulative times from the start of the transfer, in seconds,
// then the status and the connections it opened (1: no reuse).
export const CURL_FORMAT = '%{time_namelookup} %{time_connect} %{time_appconnect} %{time_pretransfer} %{time_starttransfer} %{time_total} %{http_code} %{num_connects}\\n';

export type CurlParse = { ok: true; samples: PhaseTimes[] } | { ok: false; error: string };

// curl's times are cumulative; nettools' each start where the one before ended (docs/http.md):
// connect = connect - namelookup; tls = appconnect - connect (https only: appconnect is 0 for http);
// firstByte = starttransfer - pretransfer (curl stamps pretransfer once its request is written, nettools
// starts firstByteMs at the request's 'finish': both after the write); request = starttransfer - the
// connection ready (appconnect, or connect for http): making, writing and being answered, which nettools
// does not report and which is its totalMs less every phase it does report; transfer = total -
// starttransfer; total = total - namelookup (nettools' totalMs less its resolveMs: neither side's
// resolution is compared).
export function curlPhases(line: string, https: boolean): PhaseTimes | string {
  const fields = line.trim().split(' ');
  if (fields.length !== 8) return `curl -w line without 8 fields: ${JSON.stringify(line)}`;
  const [lookup, connect, appconnect, pretransfer, start, total] = fields.slice(0, 6).map(Number) as number[] as [number, number, number, number, number, number];
  if (![lookup, connect, appconnect, pretransfer, start, total].every((x) => Number.isFinite(x) && x >= 0)) return `curl -w line with a time that is not a number: ${JSON.stringify(line)}`;
  if (fields[6] !== '200') return `curl got status ${fields[6]}`;
  if (fields[7] !== '1') return `curl opened ${fields[7]} connections for one transfer (reused or retried): ${JSON.stringify(line)}`;
  if (https && appconnect === 0) return `curl reported no TLS handshake for an https URL: ${JSON.stringify(line)}`;
  const us = (s: number) => Math.round(s * 1e6 * 1000) / 1000;
  const ready = https ? appconnect : connect;
  const out: PhaseTimes = { connect: us(connect - lookup), firstByte: us(start - pretransfer), request: us(start - ready), transfer: us(total - start), total: us(total - lookup) };
  if (https) out.tls = us(appconnect - connect);
  return out;
}

// One line per transfer, `expected` of them.
export function parseCurlOutput(text: string, https: boolean, expected: number): CurlParse {
  const lines = text.split('\n').filter((l) => l.trim().length > 0);
  if (lines.length !== expected) return { ok: false, error: `curl wrote ${lines.length} timing lines, ${expected} transfers asked` };
  const samples: PhaseTimes[] = [];
  for (const line of lines) {
    const read = curlPhases(line, https);
    if (typeof read === 'string') return { ok: false, error: read };
    samples.push(read);
  }
  return { ok: true, samples };
}

// nettools' timings (ms, as the API reports them) as the same phases in µs; total without resolveMs, and
// request the part of that total no reported phase covers (from the connection ready to the first byte,
// with the admission before the connection and the end of the check after the last byte).
export function nettoolsPhases(timings: Record<string, number | undefined>): PhaseTimes | string {
  const ms = (key: string) => timings[key];
  const needed = ['resolveMs', 'connectMs', 'firstByteMs', 'transferMs', 'totalMs'];
  const missing = needed.filter((k) => typeof ms(k) !== 'number');
  if (missing.length > 0) return `nettools' timings lack ${missing.join(', ')}: ${JSON.stringify(timings)}`;
  const us = (x: number) => Math.round(x * 1e6) / 1000;
  const tls = ms('tlsMs') ?? 0;
  const total = ms('totalMs')! - ms('resolveMs')!;
  const out: PhaseTimes = { connect: us(ms('connectMs')!), firstByte: us(ms('firstByteMs')!), request: us(total - ms('connectMs')! - tls - ms('transferMs')!), transfer: us(ms('transferMs')!), total: us(total) };
  if (typeof ms('tlsMs') === 'number') out.tls = us(tls);
  return out;
}

export interface PhaseComparison {
  phase: Phase;
  nettools: Spread;
  curl: Spread;
  p50Ratio: number | null; // nettools over curl; null when curl's is 0
  p99Ratio: number | null;
  met: boolean; // nettools' p50 at most 1 + PHASE_TARGET_RATIO of curl's
}

// The target is the overhead a check adds: nettools' median at most 5 % over curl's. Below curl is met:
// curl's phases hold its own work (its loop, writing to /dev/null), which nettools' kernel-stamped phases
// do not (docs/http.md). p99s are reported, not judged: on a shared 2-core VM they are the machine's.
// The bound itself counts as within (1.05 - 1 is a hair over 0.05 in binary).
const within = (r: number | null) => r !== null && r <= 1 + PHASE_TARGET_RATIO + 1e-9;

// Every phase both sides reported, in PHASES order.
export function comparePhases(nettools: readonly PhaseTimes[], curl: readonly PhaseTimes[]): PhaseComparison[] {
  const out: PhaseComparison[] = [];
  for (const phase of PHASES) {
    const a = spread(nettools.map((s) => s[phase]).filter((x): x is number => x !== undefined));
    const b = spread(curl.map((s) => s[phase]).filter((x): x is number => x !== undefined));
    if (a === null || b === null) continue;
    const p50Ratio = b.p50Us > 0 ? a.p50Us / b.p50Us : null;
    const p99Ratio = b.p99Us > 0 ? a.p99Us / b.p99Us : null;
    out.push({ phase, nettools: a, curl: b, p50Ratio, p99Ratio, met: within(p50Ratio) });
  }
  return out;
}
