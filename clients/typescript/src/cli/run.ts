import type { Answer } from '../answer.js';
import { NettoolsClient } from '../client.js';
import type { DnsRequest, Here, HttpRequest, MtrRequest, PingRequest, RecordType, TcpRequest, TlsRequest, TracerouteRequest } from '../types.js';
import { parseArgs, type Command } from './args.js';
import { Deadline, defaultDeadlineMs } from './deadline.js';
import { EXIT } from './exit-codes.js';
import { dnsVerdict, formatDns } from './format-dns.js';
import { formatPing, pingFailure } from './format-ping.js';
import { formatMtr, mtrFailure } from './format-mtr.js';
import { formatTcp, tcpFailure } from './format-tcp.js';
import { formatHttp, httpFailure } from './format-http.js';
import { formatTls, tlsFailure } from './format-tls.js';
import { formatTrace, traceFailure } from './format-trace.js';
import { listLocations } from './list-locations.js';
import { measureFrom } from './located.js';
import { refused, verdict } from './refused.js';
import { resultFault, type Tool } from './shapes.js';
import { oneLine, terminalSafe } from './terminal.js';
import { commandHelp, USAGE } from './usage.js';
import { VERSION } from './version.js';
import type { WatchIo } from './watch.js';
import { dnsWatcher, watchDns } from './watch-dns.js';
import { watchFrom } from './watch-located.js';
import { mtrWatcher, watchMtr } from './watch-mtr.js';
import { pingWatcher, watchPing } from './watch-ping.js';
import { tcpWatcher, watchTcp } from './watch-tcp.js';
import { traceWatcher, watchTrace } from './watch-trace.js';

export interface Io extends WatchIo {
  env: Readonly<Record<string, string | undefined>>;
}

type Measure = Extract<Command, { command: 'ping' | 'dns' | 'trace' | 'mtr' | 'tcp' | 'tls' | 'http' }>;
type Of<C extends Measure['command']> = Extract<Measure, { command: C }>;

// The whole command line: arguments in, lines out, an exit status back. Every line passes through
// terminalSafe, and nothing is thrown: whatever escapes the command is one line and exit 4.
export async function run(argv: readonly string[], io: Io): Promise<number> {
  const screen = io.screen;
  const safe: Io = { ...io, out: (line) => io.out(terminalSafe(line)), err: (line) => io.err(terminalSafe(line)), screen: screen && ((lines) => screen(lines.map(terminalSafe))) };
  try {
    return await runCommand(argv, safe);
  } catch (err) {
    safe.err(`nettools: ${oneLine(err instanceof Error ? err.message : String(err))}`);
    return EXIT.noAnswer;
  }
}

async function runCommand(argv: readonly string[], io: Io): Promise<number> {
  const parsed = parseArgs(argv, io.env);
  if (!parsed.ok) {
    io.err(`nettools: ${parsed.message} (see nettools ${parsed.command === undefined ? '' : `${parsed.command} `}--help)`);
    return EXIT.usage;
  }
  const cmd = parsed.value;
  if (cmd.command === 'help') return io.out(cmd.topic === undefined ? USAGE : commandHelp(cmd.topic)), EXIT.ok;
  if (cmd.command === 'version') return io.out(VERSION), EXIT.ok;
  if (!/^https?:\/\//i.test(cmd.server)) {
    io.err(`nettools: --server must be an http:// or https:// URL, not ${cmd.server}`);
    return EXIT.usage;
  }
  const deadline = new Deadline(cmd.deadlineMs ?? (cmd.command === 'locations' ? defaultDeadlineMs({ command: 'dns' }) : defaultDeadlineMs(cmd)));
  const client = new NettoolsClient({
    baseUrl: cmd.server,
    ...(cmd.key ? { apiKey: cmd.key } : {}),
    ...(cmd.wait ? {} : { retry: false as const }),
    onWait: (w) => {
      deadline.postpone(w.seconds * 1000);
      io.err(`nettools: ${w.status} ${w.code}: waiting ${w.seconds} s as Retry-After says, then resending (${w.attempt})`);
    },
  });
  try {
    if (cmd.command === 'locations') return await listLocations(client, cmd, io, deadline);
    if (cmd.command === 'trace') return await trace(client, cmd, io, deadline);
    if (cmd.command === 'mtr') return await mtr(client, cmd, io, deadline);
    if (cmd.command === 'tcp') return await tcp(client, cmd, io, deadline);
    if (cmd.command === 'tls') return await tls(client, cmd, io, deadline);
    if (cmd.command === 'http') return await http(client, cmd, io, deadline);
    return await (cmd.command === 'ping' ? ping(client, cmd, io, deadline) : dns(client, cmd, io, deadline));
  } finally {
    deadline.stop();
  }
}

async function http(client: NettoolsClient, cmd: Of<'http'>, io: Io, deadline: Deadline): Promise<number> {
  const { url, method, followRedirects, timeoutMs, ipVersion } = cmd;
  const request: Here<HttpRequest> = given({ url, method, followRedirects, timeoutMs, ipVersion });
  if (cmd.from !== undefined) return measureFrom(client, { ...cmd, from: cmd.from }, request, io, deadline);
  const value = usable(await client.http(request, { signal: deadline.signal }), 'http', cmd, io, deadline);
  if (typeof value === 'number') return value;
  for (const line of cmd.json ? [JSON.stringify(value, null, 2)] : formatHttp(value, cmd.server)) io.out(line);
  return verdict(httpFailure(value, cmd.expectStatus), io);
}

const printJson = (io: Io) => (problem: object) => io.out(JSON.stringify(problem, null, 2));

// The answer's value when it is the tool's result, or the exit status and what was said instead.
function usable<T>(answer: Answer<T>, tool: Tool, cmd: Measure & { host?: string }, io: Io, deadline: Deadline): T | number {
  if (!answer.ok && deadline.expired) return io.err(`nettools: no answer from ${cmd.server} within the deadline of ${deadline.ms / 1000} s`), EXIT.noAnswer;
  if (!answer.ok) return refused(answer, { server: cmd.server, target: cmd.host }, io, cmd.json ? printJson(io) : null);
  const fault = resultFault(tool, answer.value);
  if (fault === null) return answer.value;
  io.err(`nettools: no usable answer from ${cmd.server}: not a ${tool} result: ${fault}`);
  return EXIT.noAnswer;
}

const given = <T extends object>(fields: T) => Object.fromEntries(Object.entries(fields).filter(([, v]) => v !== undefined)) as T;

async function ping(client: NettoolsClient, cmd: Of<'ping'>, io: Io, deadline: Deadline): Promise<number> {
  const { host, count, intervalMs, timeoutMs, size, ipVersion } = cmd;
  const request: Here<PingRequest> = given({ host, count, intervalMs, timeoutMs, size, ipVersion });
  const watching = { ...cmd, target: host, tool: 'ping' as const, deadline };
  if (cmd.from !== undefined && cmd.watch) return watchFrom((signal) => client.pingStream({ ...request, locations: cmd.from! }, { signal }), watching, io, (at) => pingWatcher(watching, at));
  if (cmd.from !== undefined) return measureFrom(client, { ...cmd, from: cmd.from }, request, io, deadline);
  if (cmd.watch) return watchPing(client, request, watching, io);
  const value = usable(await client.ping(request, { signal: deadline.signal }), 'ping', cmd, io, deadline);
  if (typeof value === 'number') return value;
  for (const line of cmd.json ? [JSON.stringify(value, null, 2)] : formatPing(value, cmd.server)) io.out(line);
  return verdict(pingFailure(value), io);
}

async function dns(client: NettoolsClient, cmd: Of<'dns'>, io: Io, deadline: Deadline): Promise<number> {
  const request: Here<DnsRequest> = given({ domain: cmd.domain, timeoutMs: cmd.timeoutMs });
  if (cmd.types.length > 0) request.types = cmd.types as RecordType[];
  if (cmd.resolvers.length > 0) request.resolvers = cmd.resolvers;
  if (cmd.dnssec === true) request.dnssec = true;
  const watching = { ...cmd, tool: 'dns' as const, deadline };
  if (cmd.from !== undefined && cmd.watch) return watchFrom((signal) => client.dnsStream({ ...request, locations: cmd.from! }, { signal }), watching, io, (at) => dnsWatcher(request, watching, at));
  if (cmd.from !== undefined) return measureFrom(client, { ...cmd, from: cmd.from }, request, io, deadline);
  if (cmd.watch) return watchDns(client, request, watching, io);
  const value = usable(await client.dns(request, { signal: deadline.signal }), 'dns', cmd, io, deadline);
  if (typeof value === 'number') return value;
  for (const line of cmd.json ? [JSON.stringify(value, null, 2)] : formatDns(value, cmd.server)) io.out(line);
  return dnsVerdict(value, cmd, io);
}

async function trace(client: NettoolsClient, cmd: Of<'trace'>, io: Io, deadline: Deadline): Promise<number> {
  const { host, maxHops, probesPerHop, timeoutMs, ipVersion, resolveNames, asn } = cmd;
  const request: Here<TracerouteRequest> = given({ host, maxHops, probesPerHop, timeoutMs, ipVersion, resolveNames, asn });
  const watching = { ...cmd, target: host, tool: 'trace' as const, deadline };
  if (cmd.from !== undefined && cmd.watch) return watchFrom((signal) => client.tracerouteStream({ ...request, locations: cmd.from! }, { signal }), watching, io, (at) => traceWatcher(request, watching, at));
  if (cmd.from !== undefined) return measureFrom(client, { ...cmd, from: cmd.from }, request, io, deadline);
  if (cmd.watch) return watchTrace(client, request, watching, io);
  const value = usable(await client.traceroute(request, { signal: deadline.signal }), 'trace', cmd, io, deadline);
  if (typeof value === 'number') return value;
  for (const line of cmd.json ? [JSON.stringify(value, null, 2)] : formatTrace(value, request, cmd.server)) io.out(line);
  return verdict(traceFailure(value), io);
}

async function mtr(client: NettoolsClient, cmd: Of<'mtr'>, io: Io, deadline: Deadline): Promise<number> {
  const { host, cycles, intervalMs, maxHops, timeoutMs, ipVersion, resolveNames, asn } = cmd;
  const request: Here<MtrRequest> = given({ host, cycles, intervalMs, maxHops, timeoutMs, ipVersion, resolveNames, asn });
  const columns = { names: resolveNames === true, asn: asn === true };
  const watching = { ...cmd, target: host, tool: 'mtr' as const, deadline, columns };
  if (cmd.from !== undefined && cmd.watch) return watchFrom((signal) => client.mtrStream({ ...request, locations: cmd.from! }, { signal }), watching, io, (at) => mtrWatcher(watching, at));
  if (cmd.from !== undefined) return measureFrom(client, { ...cmd, from: cmd.from }, request, io, deadline);
  if (cmd.watch) return watchMtr(client, request, watching, io);
  const value = usable(await client.mtr(request, { signal: deadline.signal }), 'mtr', cmd, io, deadline);
  if (typeof value === 'number') return value;
  for (const line of cmd.json ? [JSON.stringify(value, null, 2)] : formatMtr(value, columns, cmd.server)) io.out(line);
  return verdict(mtrFailure(value), io);
}

async function tcp(client: NettoolsClient, cmd: Of<'tcp'>, io: Io, deadline: Deadline): Promise<number> {
  const { host, port, count, intervalMs, timeoutMs, ipVersion } = cmd;
  const request: Here<TcpRequest> = given({ host, port, count, intervalMs, timeoutMs, ipVersion });
  const watching = { ...cmd, target: host, tool: 'tcp' as const, deadline };
  if (cmd.from !== undefined && cmd.watch) return watchFrom((signal) => client.tcpStream({ ...request, locations: cmd.from! }, { signal }), watching, io, (at) => tcpWatcher(request, watching, at));
  if (cmd.from !== undefined) return measureFrom(client, { ...cmd, from: cmd.from }, request, io, deadline);
  if (cmd.watch) return watchTcp(client, request, watching, io);
  const value = usable(await client.tcp(request, { signal: deadline.signal }), 'tcp', cmd, io, deadline);
  if (typeof value === 'number') return value;
  for (const line of cmd.json ? [JSON.stringify(value, null, 2)] : formatTcp(value, cmd.server)) io.out(line);
  return verdict(tcpFailure(value), io);
}

async function tls(client: NettoolsClient, cmd: Of<'tls'>, io: Io, deadline: Deadline): Promise<number> {
  const { host, port, serverName, timeoutMs, ipVersion } = cmd;
  const request: Here<TlsRequest> = given({ host, port, serverName, timeoutMs, ipVersion });
  if (cmd.from !== undefined) return measureFrom(client, { ...cmd, from: cmd.from }, request, io, deadline);
  const value = usable(await client.tls(request, { signal: deadline.signal }), 'tls', cmd, io, deadline);
  if (typeof value === 'number') return value;
  for (const line of cmd.json ? [JSON.stringify(value, null, 2)] : formatTls(value, cmd.server)) io.out(line);
  return verdict(tlsFailure(value, cmd.certDays), io);
}
