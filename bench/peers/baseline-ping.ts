import { execFile } from 'node:child_process';
import { Resolver } from 'node:dns/promises';
import { performance } from 'node:perf_hooks';
import type { ResolverConfig } from '../../src/config/types';
import type { PingRequest } from '../../src/tools/ping/types';
import { parseHost } from '../../src/validation/names';
import { parseIputilsPing, type IputilsOutput } from '../lib/ping-output';

// The ping endpoint written the usual way: spawn iputils `ping` and read its text. Only an IP literal
// is ever passed to it (`-n`: no reverse lookups either); names resolve through the configured
// resolvers, never through the system resolver.

export type PingOutcome = { status: 200 | 422 | 500; body: Record<string, unknown> };

const round = (ms: number) => Math.round(ms * 1000) / 1000;

export function createPingHandler(resolvers: readonly ResolverConfig[]): (request: PingRequest) => Promise<PingOutcome> {
  const first = resolvers[0];
  const resolver = new Resolver({ timeout: 2000, tries: 1 });
  if (first !== undefined) resolver.setServers([first.family === 6 ? `[${first.address}]:${first.port}` : `${first.address}:${first.port}`]);

  async function resolveAddress(request: PingRequest): Promise<{ address: string; family: 4 | 6 } | null> {
    const target = parseHost(request.host);
    if (target === null) return null;
    if (target.kind === 'ipv4') return { address: target.value, family: 4 };
    if (target.kind === 'ipv6') return { address: target.value, family: 6 };
    if (first === undefined) return null;
    for (const family of request.ipVersion === undefined ? ([4, 6] as const) : [request.ipVersion]) {
      try {
        const found = family === 4 ? await resolver.resolve4(target.value) : await resolver.resolve6(target.value);
        if (found[0] !== undefined) return { address: found[0], family };
      } catch {
        // no address of this family: try the next
      }
    }
    return null;
  }

  return async (request) => {
    const startedAt = new Date().toISOString();
    const started = performance.now();
    const target = await resolveAddress(request);
    const resolveMs = round(performance.now() - started);
    if (target === null) {
      return { status: 422, body: { code: 'host-not-found', detail: `${request.host} has no address of the wanted family` } };
    }
    const args = [
      '-n',
      `-${target.family}`,
      '-c', String(request.count),
      '-i', String(request.intervalMs / 1000),
      '-W', String(request.timeoutMs / 1000),
      '-s', String(request.size),
      target.address,
    ];
    const budgetMs = request.count * (request.intervalMs + request.timeoutMs) + 2000;
    const text = await new Promise<string>((resolve) => {
      // ping exits 1 when nothing came back: its output is still the measurement.
      execFile('ping', args, { timeout: budgetMs }, (_err, stdout) => resolve(String(stdout)));
    });
    const parsed = parseIputilsPing(text);
    if (parsed === null) return { status: 500, body: { code: 'internal-error', detail: 'ping printed no statistics' } };
    return {
      status: 200,
      body: {
        host: request.host,
        address: target.address,
        ipVersion: target.family,
        ...shape(parsed, request.count),
        resolveMs,
        durationMs: round(performance.now() - started),
        startedAt,
      },
    };
  };
}

// iputils' text to the API's shape: 0-based seq, one entry per echo sent.
export function shape(parsed: IputilsOutput, count: number) {
  const firsts = parsed.replies.filter((r) => !r.duplicate);
  const replies = [];
  for (let seq = 0; seq < count; seq++) {
    const reply = firsts.find((r) => r.seq === seq + 1);
    const error = parsed.errors.find((e) => e.seq === seq + 1);
    if (reply) replies.push({ seq, status: 'reply', rttMs: reply.rttMs, ttl: reply.ttl, bytes: reply.bytes });
    else if (error) replies.push({ seq, status: 'unreachable', from: error.from, reason: error.reason.toLowerCase().replace(/^destination /, '').replace(/ /g, '-') });
    else replies.push({ seq, status: 'timeout' });
  }
  const rtts = firsts.map((r) => r.rttMs);
  let jitter = 0;
  for (let i = 1; i < rtts.length; i++) jitter += Math.abs((rtts[i] as number) - (rtts[i - 1] as number));
  const sent = parsed.transmitted;
  return {
    reachable: parsed.received > 0,
    packets: {
      sent,
      received: parsed.received,
      duplicates: parsed.replies.length - firsts.length,
      lossPercent: sent === 0 ? 0 : round(((sent - parsed.received) / sent) * 100),
    },
    rtt:
      parsed.rtt === null
        ? null
        : { minMs: parsed.rtt.minMs, avgMs: parsed.rtt.avgMs, maxMs: parsed.rtt.maxMs, stddevMs: parsed.rtt.mdevMs, jitterMs: rtts.length < 2 ? 0 : round(jitter / (rtts.length - 1)) },
    replies,
  };
}
