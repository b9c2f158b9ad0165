// The line a finished trace ends with: did the probes reach the host, and if not, where the path stopped.
// Words only, from the summary event (the JSON body): destinationReached, address and the hops.

import type { TracerouteProbe, TracerouteResult } from './client/index.js';

type Answered = Exclude<TracerouteProbe, { status: 'timeout' }>;

const hopsText = (n: number): string => `${n} ${n === 1 ? 'hop' : 'hops'}`;

export function traceVerdict(s: TracerouteResult): { reached: boolean; text: string } {
  const target = s.host === s.address ? s.address : `${s.host} (${s.address})`;
  if (s.destinationReached) return { reached: true, text: `Reached ${target} in ${hopsText(s.hops.length)}.` };
  const last = s.hops[s.hops.length - 1];
  const refusal = last?.probes.find((p): p is Answered => 'icmp' in p);
  if (last !== undefined && refusal !== undefined && refusal.icmp.name !== 'ttl-exceeded' && refusal.icmp.name !== 'hop-limit-exceeded') {
    return { reached: false, text: `Not reached: ${target}; hop ${last.ttl} (${refusal.address}) answered ${refusal.icmp.name}.` };
  }
  return { reached: false, text: `Not reached: no answer from ${target} within ${hopsText(s.hops.length)}.` };
}
