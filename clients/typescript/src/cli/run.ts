import { NettoolsClient } from '../client.js';
import type { DnsRequest, PingRequest, RecordType, TracerouteRequest } from '../types.js';
import { parseArgs, USAGE, type Command } from './args.js';
import { EXIT } from './exit-codes.js';
import { dnsFailure, formatDns } from './format-dns.js';
import { formatPing, pingFailure } from './format-ping.js';
import { formatTrace, traceFailure } from './format-trace.js';
import { refused, verdict } from './refused.js';
import { VERSION } from './version.js';
import type { WatchIo } from './watch.js';
import { watchDns } from './watch-dns.js';
import { watchPing } from './watch-ping.js';
import { watchTrace } from './watch-trace.js';

export interface Io extends WatchIo {
  env: Readonly<Record<string, string | undefined>>;
}

type Measure = Extract<Command, { command: 'ping' | 'dns' | 'trace' }>;

// The whole command line: arguments in, lines out, an exit status back.
export async function run(argv: readonly string[], io: Io): Promise<number> {
  const parsed = parseArgs(argv, io.env);
  if (!parsed.ok) {
    io.err(`nettools: ${parsed.message}`);
    io.err(USAGE);
    return EXIT.usage;
  }
  const cmd = parsed.value;
  if (cmd.command === 'help') return io.out(USAGE), EXIT.ok;
  if (cmd.command === 'version') return io.out(VERSION), EXIT.ok;
  if (!/^https?:\/\//i.test(cmd.server)) {
    io.err(`nettools: --server must be an http:// or https:// URL, not ${cmd.server}`);
    return EXIT.usage;
  }
  const client = new NettoolsClient({
    baseUrl: cmd.server,
    ...(cmd.key ? { apiKey: cmd.key } : {}),
    ...(cmd.wait ? {} : { retry: false as const }),
    onWait: (w) => io.err(`nettools: ${w.status} ${w.code}: waiting ${w.seconds} s as Retry-After says, then resending (${w.attempt})`),
  });
  if (cmd.command === 'trace') return trace(client, cmd, io);
  return cmd.command === 'ping' ? ping(client, cmd, io) : dns(client, cmd, io);
}

const printJson = (io: Io) => (problem: object) => io.out(JSON.stringify(problem, null, 2));

async function ping(client: NettoolsClient, cmd: Extract<Measure, { command: 'ping' }>, io: Io): Promise<number> {
  const request: PingRequest = { host: cmd.host, ...(cmd.count === undefined ? {} : { count: cmd.count }), ...(cmd.intervalMs === undefined ? {} : { intervalMs: cmd.intervalMs }) };
  if (cmd.watch) return watchPing(client, request, cmd, io);
  const answer = await client.ping(request);
  if (!answer.ok) return refused(answer, cmd.server, io, cmd.json ? printJson(io) : null);
  for (const line of cmd.json ? [JSON.stringify(answer.value, null, 2)] : formatPing(answer.value, cmd.server)) io.out(line);
  return verdict(pingFailure(answer.value), io);
}

async function dns(client: NettoolsClient, cmd: Extract<Measure, { command: 'dns' }>, io: Io): Promise<number> {
  const request: DnsRequest = { domain: cmd.domain };
  if (cmd.types.length > 0) request.types = cmd.types as RecordType[];
  if (cmd.resolvers.length > 0) request.resolvers = cmd.resolvers;
  if (cmd.watch) return watchDns(client, request, cmd, io);
  const answer = await client.dns(request);
  if (!answer.ok) return refused(answer, cmd.server, io, cmd.json ? printJson(io) : null);
  for (const line of cmd.json ? [JSON.stringify(answer.value, null, 2)] : formatDns(answer.value, cmd.server)) io.out(line);
  return verdict(dnsFailure(answer.value, cmd), io);
}

async function trace(client: NettoolsClient, cmd: Extract<Measure, { command: 'trace' }>, io: Io): Promise<number> {
  const { host, maxHops, probesPerHop, timeoutMs, ipVersion } = cmd;
  const request: TracerouteRequest = { host, ...(maxHops === undefined ? {} : { maxHops }), ...(probesPerHop === undefined ? {} : { probesPerHop }), ...(timeoutMs === undefined ? {} : { timeoutMs }), ...(ipVersion === undefined ? {} : { ipVersion }) };
  if (cmd.watch) return watchTrace(client, request, cmd, io);
  const answer = await client.traceroute(request);
  if (!answer.ok) return refused(answer, cmd.server, io, cmd.json ? printJson(io) : null);
  for (const line of cmd.json ? [JSON.stringify(answer.value, null, 2)] : formatTrace(answer.value, request, cmd.server)) io.out(line);
  return verdict(traceFailure(answer.value), io);
}
