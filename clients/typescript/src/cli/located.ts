import type { Answer } from '../answer.js';
import type { NettoolsClient } from '../client.js';
import type { At, DnsRequest, HttpRequest, LocationsSelector, MtrRequest, PingRequest, Problem, TcpRequest, TlsRequest, TracerouteRequest } from '../types.js';
import type { Command } from './args.js';
import type { Deadline } from './deadline.js';
import { EXIT } from './exit-codes.js';
import { dnsVerdict, formatDns } from './format-dns.js';
import { formatHttp, httpFailure } from './format-http.js';
import { formatMtr, mtrFailure } from './format-mtr.js';
import { formatPing, pingFailure } from './format-ping.js';
import { formatTcp, tcpFailure } from './format-tcp.js';
import { formatTls, tlsFailure } from './format-tls.js';
import { formatTrace, traceFailure } from './format-trace.js';
import { refused } from './refused.js';
import { locatedFault, type Tool } from './shapes.js';
import { oneLine } from './terminal.js';

interface Io {
  out(line: string): void;
  err(line: string): void;
}

type Measure = Extract<Command, { command: 'ping' | 'dns' | 'trace' | 'mtr' | 'tcp' | 'tls' | 'http' }>;
type Request = PingRequest | DnsRequest | TracerouteRequest | MtrRequest | TcpRequest | TlsRequest | HttpRequest;
type Body = { locations: Record<string, object>; verdict: Record<string, number | boolean> };
type Entry = { problem: Problem };
const isProblem = (entry: object): entry is Entry => 'problem' in entry;

// `--from`: the measurement at each location, one block per location as the single-location output
// prints it, headed by the location's name, then the verdict line. Exit status: ping, trace and mtr 0 when at
// least --quorum locations (every one asked, unless set) reached the target, else 1; dns the worst of the
// locations' own statuses, a location that gave no answer counting as 1. tcp and tls count the locations
// that connected, or completed the handshake, as reached; http those that got an answer.
export async function measureFrom(client: NettoolsClient, cmd: Measure & { from: LocationsSelector }, request: Request, io: Io, deadline: Deadline): Promise<number> {
  const asked = { ...request, locations: cmd.from };
  const call = { signal: deadline.signal };
  const answer: Answer<unknown> = await ask(client, cmd.command, asked, call);
  if (!answer.ok && deadline.expired) return io.err(`nettools: no answer from ${cmd.server} within the deadline of ${deadline.ms / 1000} s`), EXIT.noAnswer;
  if (!answer.ok) return refused(answer, { server: cmd.server, target: 'host' in cmd ? cmd.host : undefined }, io, cmd.json ? (p) => io.out(JSON.stringify(p, null, 2)) : null);
  const fault = locatedFault(cmd.command, answer.value);
  if (fault !== null) return io.err(`nettools: no usable answer from ${cmd.server}: not a ${cmd.command} answer with locations: ${fault}`), EXIT.noAnswer;
  const body = answer.value as Body;
  if (cmd.json) io.out(JSON.stringify(body, null, 2));
  return cmd.command === 'dns' ? dnsFrom(body, cmd, io) : reachedFrom(body, cmd, request, io);
}

function ask(client: NettoolsClient, tool: Tool, asked: Request, call: { signal: AbortSignal }): Promise<Answer<unknown>> {
  if (tool === 'ping') return client.ping(asked as At<PingRequest>, call);
  if (tool === 'dns') return client.dns(asked as At<DnsRequest>, call);
  if (tool === 'trace') return client.traceroute(asked as At<TracerouteRequest>, call);
  if (tool === 'tcp') return client.tcp(asked as At<TcpRequest>, call);
  if (tool === 'tls') return client.tls(asked as At<TlsRequest>, call);
  if (tool === 'http') return client.http(asked as At<HttpRequest>, call);
  return client.mtr(asked as At<MtrRequest>, call);
}

// One location's result as the command prints it without --from, and why it fails the check, or null.
function shown(cmd: Measure, entry: never, request: Request, server: string): { lines: () => string[]; failure: string | null } {
  const tool = cmd.command;
  if (tool === 'ping') return { lines: () => formatPing(entry, server), failure: pingFailure(entry) };
  if (tool === 'tcp') return { lines: () => formatTcp(entry, server), failure: tcpFailure(entry) };
  if (cmd.command === 'tls') return { lines: () => formatTls(entry, server), failure: tlsFailure(entry, cmd.certDays) };
  if (cmd.command === 'http') return { lines: () => formatHttp(entry, server), failure: httpFailure(entry, cmd.expectStatus) };
  if (tool === 'trace') return { lines: () => formatTrace(entry, request as TracerouteRequest, server), failure: traceFailure(entry) };
  const { resolveNames, asn } = request as MtrRequest;
  return { lines: () => formatMtr(entry, { names: resolveNames === true, asn: asn === true }, server), failure: mtrFailure(entry) };
}

function block(name: string, entry: object, lines: () => string[], io: Io, first: boolean): void {
  if (!first) io.out('');
  io.out(`== ${name} ==`);
  if (!isProblem(entry)) return lines().forEach((l) => io.out(l));
  const p = entry.problem;
  io.out(`problem: ${p.status} ${oneLine(p.title)} (${oneLine(p.code)}): ${oneLine(p.detail)}`);
}

function reachedFrom(body: Body, cmd: Measure, request: Request, io: Io): number {
  Object.entries(body.locations).forEach(([name, entry], i) => {
    if (cmd.json) return;
    const result = isProblem(entry) ? null : shown(cmd, entry as never, request, cmd.server);
    block(name, entry, () => result?.lines() ?? [], io, i === 0);
    if (result?.failure) io.err(`nettools: at ${name}: ${result.failure}`);
  });
  return reachedVerdict(body.verdict, { ...cmd, ...('host' in cmd ? { host: cmd.host } : {}) }, io);
}

// The verdict line of ping, trace, mtr, tcp and tls with --from, and the exit status it makes.
export function reachedVerdict(verdict: Body['verdict'], cmd: { json: boolean; quorum?: number | undefined; host?: string }, io: Io): number {
  const { reached, of } = verdict as { reached: number; of: number };
  const quorum = cmd.quorum ?? of;
  if (!cmd.json) io.out(''), io.out(`reached from ${reached} of ${of} locations (quorum ${quorum})`);
  if (reached >= quorum) return EXIT.ok;
  return io.err(`nettools: ${cmd.host ?? 'the target'} was reached from ${reached} of ${of} locations, fewer than ${quorum}`), EXIT.failed;
}

function dnsFrom(body: Body, cmd: Extract<Measure, { command: 'dns' }>, io: Io): number {
  let code: number = EXIT.ok;
  Object.entries(body.locations).forEach(([name, entry], i) => {
    if (!cmd.json) block(name, entry, () => formatDns(entry as never, cmd.server), io, i === 0);
    const at = { err: (line: string) => io.err(line.replace(/^nettools: /, `nettools: at ${name}: `)) };
    code = Math.max(code, isProblem(entry) ? (at.err(`nettools: ${oneLine(entry.problem.title)} (${oneLine(entry.problem.code)})`), EXIT.failed) : dnsVerdict(entry as never, cmd, at));
  });
  return consistencyVerdict(body.verdict, cmd, io, code);
}

// The verdict line of dns with --from; `code` is the worst of the locations' own statuses.
export function consistencyVerdict(verdict: Body['verdict'], cmd: { json: boolean; consistent?: boolean | undefined; domain: string }, io: Io, code: number): number {
  const { consistent, answered, of } = verdict as { consistent: boolean; answered: number; of: number };
  if (!cmd.json) io.out(''), io.out(`${consistent ? 'consistent' : 'not consistent'} across locations: ${answered} of ${of} answered`);
  if (cmd.consistent && !consistent) return io.err(`nettools: the locations disagree about ${oneLine(cmd.domain)}`), Math.max(code, EXIT.failed);
  return code;
}
