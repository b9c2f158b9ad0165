// The slot of a tool that measures on the worker's ICMP engine (ping, traceroute, mtr): each run's outcome
// counted, the engine's socket kinds as the tool's info. The engine is the worker's: openTools closes it
// after every tool, so closing the tool closes nothing.
import type { Pinger } from '../engines/icmp/types';
import type { CancelToken } from '../util/cancel';
import type { Outcome } from './outcome';
import type { Elsewhere } from './target-path';
import type { ToolEvents, ToolSlot } from './tool';

export type Measure<Req, Res> = (request: Req, cancel: CancelToken, events?: ToolEvents) => Promise<Outcome<Res>>;

export interface OutcomeMetrics<Res> {
  finished(outcome: Outcome<Res>): void;
}

export function icmpToolSlot<Req, Res>(pinger: Pinger, measure: Measure<Req, Res>, metrics: OutcomeMetrics<Res> | null, elsewhere: Elsewhere<Req, Res>, withReasons = false): ToolSlot<Req, Res> {
  const { v4, v6, reasons } = pinger.socketKinds;
  const told = withReasons && Object.keys(reasons).length > 0 ? { reasons } : {};
  return {
    run: async (request, cancel, events) => {
      const outcome = await measure(request, cancel, events);
      metrics?.finished(outcome);
      return outcome;
    },
    elsewhere,
    info: { socketKinds: { v4, v6 }, ...told },
    close: () => undefined,
  };
}
