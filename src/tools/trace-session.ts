// One trace of the path to a target through the worker's ICMP engine, as traceroute runs it once and mtr
// runs it every cycle: every TTL's probes sent together, matched by the engine, folded into hops.
import { IcmpError } from '../engines/icmp/errors';
import type { Pinger, TraceOptions } from '../engines/icmp/types';
import type { CancelToken } from '../util/cancel';
import { engineSession } from './engine-session';
import { HopAssembler } from './traceroute/hops';
import type { TraceHop } from './traceroute/types';

// Probes leave this far apart: a whole path (32 TTLs x 3) within about 5 ms, never one burst that a
// router's ICMP rate limit or our receive queue would cut short.
export const PACE_US = 50;
// Payload bytes per probe: the cookie and a little more, as small as Debian's traceroute -I sends.
export const PROBE_SIZE = 32;

export type Traced = { ok: true; hops: HopAssembler } | { ok: false; error: IcmpError };

// The probes of one trace, until the path is complete (then the rest is stopped) or every probe is
// decided; stopped when the caller goes away. `onHop`: each hop in TTL order once it is decided.
export function traceSession(pinger: Pinger, options: TraceOptions, cancel: CancelToken, onHop: (hop: TraceHop) => void = () => undefined): Promise<Traced> {
  const hops = new HopAssembler(options.maxHops, options.probesPerHop, options.address);
  return engineSession<Traced>(cancel, callerGone, (end) =>
    pinger.trace(
      options,
      (outcome) => end(outcome.ok ? { ok: true, hops } : outcome),
      (probe) => {
        hops.add(probe);
        for (const hop of hops.newlyDecided()) onHop(hop);
        if (hops.complete()) end({ ok: true, hops });
      },
    ),
  );
}

function callerGone(): Traced {
  return { ok: false, error: new IcmpError('aborted', 'the caller went away') };
}
