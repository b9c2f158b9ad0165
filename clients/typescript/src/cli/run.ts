import type { Answer, ClientError } from '../answer.js';
import { NettoolsClient } from '../client.js';
import type { DnsRequest, RecordType } from '../types.js';
import { parseArgs, USAGE, type Command } from './args.js';
import { EXIT } from './exit-codes.js';
import { dnsFailure, formatDns } from './format-dns.js';
import { formatPing, pingFailure } from './format-ping.js';
import { VERSION } from './version.js';

export interface Io {
  out(line: string): void;
  err(line: string): void;
  env: Readonly<Record<string, string | undefined>>;
}

type Measure = Extract<Command, { command: 'ping' | 'dns' }>;

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
  return cmd.command === 'ping' ? ping(client, cmd, io) : dns(client, cmd, io);
}

async function ping(client: NettoolsClient, cmd: Extract<Measure, { command: 'ping' }>, io: Io): Promise<number> {
  const answer = await client.ping({ host: cmd.host, ...(cmd.count === undefined ? {} : { count: cmd.count }) });
  if (!answer.ok) return refused(answer, cmd, io);
  for (const line of cmd.json ? [JSON.stringify(answer.value, null, 2)] : formatPing(answer.value, cmd.server)) io.out(line);
  return verdict(pingFailure(answer.value), io);
}

async function dns(client: NettoolsClient, cmd: Extract<Measure, { command: 'dns' }>, io: Io): Promise<number> {
  const request: DnsRequest = { domain: cmd.domain };
  if (cmd.types.length > 0) request.types = cmd.types as RecordType[];
  if (cmd.resolvers.length > 0) request.resolvers = cmd.resolvers;
  const answer = await client.dns(request);
  if (!answer.ok) return refused(answer, cmd, io);
  for (const line of cmd.json ? [JSON.stringify(answer.value, null, 2)] : formatDns(answer.value, cmd.server)) io.out(line);
  return verdict(dnsFailure(answer.value, cmd), io);
}

function verdict(failure: string | null, io: Io): number {
  if (failure === null) return EXIT.ok;
  io.err(`nettools: ${failure}`);
  return EXIT.failed;
}

// A call without a value: the problem's title and detail on stderr (and, with --json, its body on stdout).
function refused(answer: Extract<Answer<unknown>, { ok: false }>, cmd: Measure, io: Io): number {
  const error: ClientError = answer.error;
  if (error.kind !== 'problem') {
    io.err(`nettools: no answer from ${cmd.server}: ${error.message}`);
    return EXIT.noAnswer;
  }
  const p = error.problem;
  if (cmd.json) io.out(JSON.stringify(p, null, 2));
  io.err(`nettools: refused by the server: ${error.status} ${p.title} (${p.code})`);
  io.err(`nettools: ${p.detail}`);
  for (const e of p.errors ?? []) io.err(`nettools:   ${e.pointer}: ${e.message}`);
  if (answer.rateLimit.retryAfterSeconds !== undefined) io.err(`nettools: Retry-After ${answer.rateLimit.retryAfterSeconds} s`);
  return EXIT.refused;
}
