import { performance } from 'node:perf_hooks';
import { openResolverClient } from '../../src/engines/dns';
import { openPinger } from '../../src/engines/icmp/pinger';
import { median } from '../lib/stats';
import type { DnsEngineRow, IcmpRow } from '../lib/types';
import { closedLoop, closedLoopCallbacks } from './loop';
import { ENGINE_QUESTION_TYPES, type DnsEngineOptions } from './questions';
import { ip } from '../../test/support/address';

// The one place the bench measures the native engines through their own JS APIs, without HTTP.

// The questions of one dns request to one resolver (A, AAAA, MX and TXT), asked in one call as the
// server's upstream layer asks them; `inFlight` counts queries, so `inFlight / 4` calls are outstanding.
export async function measureNativeDns(opts: DnsEngineOptions): Promise<DnsEngineRow['result']> {
  const client = openResolverClient();
  const types = ENGINE_QUESTION_TYPES;
  const request = { domain: opts.name, types: [...types], resolvers: [{ id: 'bench', address: opts.address, port: opts.port, family: 4 as const }], timeoutMs: 2000 };
  const calls = Math.max(1, Math.round(opts.inFlight / types.length));
  let answered = 0;
  let unanswered = 0;
  try {
    // Through `start`, the callback API the server's upstream layer calls, not the promise wrapper.
    const r = await closedLoopCallbacks(calls, opts.durationS, (done) => {
      client.start(request, ([answer]) => {
        let all = true;
        for (const type of types) {
          if ((answer?.queries[type] as { rcode?: string } | undefined)?.rcode === 'NOERROR') answered++;
          else {
            unanswered++;
            all = false;
          }
        }
        done(all);
      });
    });
    if (answered === 0) return { ok: false, unavailable: `unavailable: no query answered (${unanswered + r.failed * types.length} failed)` };
    return { ok: true, queriesPerSecond: answered / r.elapsedS, completed: answered, failed: unanswered, inFlight: calls * types.length, durationS: r.elapsedS };
  } finally {
    client.close();
  }
}

const ECHO = { address: ip('127.0.0.1'), count: 1, intervalMs: 100, timeoutMs: 1000, size: 56 };

// Echoes/s with `inFlight` single-echo pings outstanding, then the RTT median of `rttSamples`
// echoes sent one at a time 10 ms apart (the same pacing as the iputils reference).
export async function measureNativeIcmp(opts: { durationS: number; inFlight: number; rttSamples: number }): Promise<IcmpRow['result']> {
  const pinger = openPinger();
  try {
    const replied = async () => (await pinger.ping(ECHO)).replies.some((r) => r.status === 'reply');
    const burst = await closedLoop(opts.inFlight, opts.durationS, replied);
    const rtts: number[] = [];
    for (let i = 0; i < opts.rttSamples; i++) {
      const started = performance.now();
      const reply = (await pinger.ping(ECHO)).replies.find((r) => r.status === 'reply');
      if (reply?.rttMs !== undefined) rtts.push(reply.rttMs * 1000);
      await new Promise((r) => setTimeout(r, Math.max(0, 10 - (performance.now() - started))));
    }
    if (burst.completed === 0 && rtts.length === 0) return { ok: false, unavailable: 'unavailable: no echo came back' };
    return { ok: true, echoesPerSecond: burst.completed / burst.elapsedS, rttMedianUs: median(rtts), samples: rtts.length };
  } finally {
    pinger.close();
  }
}
