import type { HttpResult } from '../types.js';
import { oneLine } from './terminal.js';

type Timings = HttpResult['timings'];

const endpoint = (address: string, port: number) => (address.includes(':') ? `[${oneLine(address)}]:${port}` : `${oneLine(address)}:${port}`);
// A URL's port, for a redirect hop (which reports its URL and address).
const portOf = (url: string) => {
  const u = new URL(url);
  return u.port === '' ? (u.protocol === 'https:' ? 443 : 80) : Number(u.port);
};
const seconds = (ms: number) => (ms / 1000).toFixed(6);

// curl -w's figures, each from the start of the exchange: the phases added up to where each ends.
export function curlTimings(t: Timings): string {
  const lookup = t.resolveMs;
  const connect = lookup + (t.connectMs ?? 0);
  const app = t.tlsMs === undefined ? 0 : connect + t.tlsMs;
  const start = t.firstByteMs === undefined ? 0 : Math.max(connect, app) + t.firstByteMs;
  return `time_namelookup=${seconds(lookup)} time_connect=${seconds(t.connectMs === undefined ? 0 : connect)} time_appconnect=${seconds(app)} time_starttransfer=${seconds(start)} time_total=${seconds(t.totalMs)}`;
}

// Where an exchange without an answer ended, or null when one came.
function unanswered(result: HttpResult): string | null {
  if (result.connect !== undefined) return `connect ${result.connect}`;
  if (result.handshake !== undefined) return `TLS handshake ${result.handshake}`;
  if (result.response !== undefined && result.status === undefined) return `response ${result.response}`;
  return null;
}

// What the check showed, as a person reads it: each redirect, the answer, the certificate, the timings.
export function formatHttp(result: HttpResult, server: string): string[] {
  const lines = result.redirects.map((r) => `${r.status} ${oneLine(r.url)} (${endpoint(r.address, portOf(r.url))}) -> ${oneLine(r.location)}`);
  const where = `${oneLine(result.finalUrl)} (${endpoint(result.address, result.port)}) via ${server}`;
  const failure = unanswered(result);
  const code = result.code ? ` (${oneLine(result.code)})` : '';
  if (failure !== null) lines.push(`HTTP ${result.method} ${where}: ${failure}${code}`);
  else lines.push(`HTTP ${result.method} ${where}: ${result.status} HTTP/${oneLine(result.httpVersion ?? '?')}${result.body ? `, ${result.body.bytes} bytes${result.body.truncated ? ' (cut at the cap)' : ''}` : ''}${result.response ? `, then ${result.response}${code}` : ''}`);
  if (result.location !== undefined) lines.push(`Location: ${oneLine(result.location)} (not followed)`);
  const leaf = result.tls?.certificates[0];
  if (result.tls !== undefined) lines.push(`TLS ${oneLine(result.tls.protocol)}, ${result.tls.verified ? 'verified' : `NOT verified: ${oneLine(result.tls.verifyError ?? 'unknown')}`}${leaf ? `, ${oneLine(leaf.subject ?? '-')} not after ${oneLine(leaf.notAfter)} (${leaf.daysLeft} days left)` : ''}`);
  lines.push(curlTimings(result.timings));
  return lines;
}

// Why the check failed, for the exit status: no answer, or a status not expected (by default any below
// 400 passes, as curl --fail judges). null: it passed.
export function httpFailure(result: HttpResult, expected: readonly number[] | undefined): string | null {
  const failure = unanswered(result);
  if (failure !== null || result.status === undefined) return `no answer from ${oneLine(result.finalUrl)}: ${failure ?? 'none'}${result.code ? ` (${oneLine(result.code)})` : ''}`;
  if (expected === undefined ? result.status < 400 : expected.includes(result.status)) return null;
  return `${oneLine(result.finalUrl)} answered ${result.status}, ${expected === undefined ? 'an error status' : `not one of ${expected.join(', ')}`}`;
}
