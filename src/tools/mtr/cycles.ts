// The cycles of one mtr: each one trace session over the whole path (one probe per TTL, all sent
// together, as traceroute sends them), folded into the path's rows once every TTL it needs is decided.
// Cycle k starts k x intervalMs after the first, or as soon as cycle k - 1 ends when that is later: one
// cycle at a time, so an mtr holds at most maxHops of its engine's sequences. Every tenth cycle but the
// first is paid for before it starts; a refused payment ends the mtr there.
import { performance } from 'node:perf_hooks';
import type { Pinger } from '../../engines/icmp/types';
import type { Address } from '../../net/address';
import { promised, type Answer } from '../../util/answer';
import type { CancelToken } from '../../util/cancel';
import { engineFailure } from '../icmp-engine';
import type { ToolFailure } from '../outcome';
import { PACE_US, PROBE_SIZE, traceSession } from '../trace-session';
import type { MtrPath } from './path-hops';

// Cycles one payment covers: the request's own token and trace unit pay the first ten.
export const CYCLES_PER_PAYMENT = 10;

// Pays for the cycles from `cycle` (0-based) on: null when paid, else why not.
export type CyclePayment = (cycle: number, done: Answer<ToolFailure | null>) => void;

export interface CycleOptions {
  address: Address;
  cycles: number;
  intervalMs: number;
  timeoutMs: number;
}

export type CyclesOutcome = { ok: true } | { ok: false; failure: ToolFailure };

export async function runCycles(pinger: Pinger, options: CycleOptions, path: MtrPath, cancel: CancelToken, pay: CyclePayment, aborted: ToolFailure, onCycle: (cycle: number) => void): Promise<CyclesOutcome> {
  const t0 = performance.now();
  for (let k = 0; k < options.cycles; k++) {
    if (k > 0 && !(await waitUntil(t0 + k * options.intervalMs, cancel))) return { ok: false, failure: aborted };
    if (k > 0 && k % CYCLES_PER_PAYMENT === 0) {
      const unpaid = await promised((done: Answer<ToolFailure | null>) => pay(k, done));
      if (unpaid !== null) return { ok: false, failure: unpaid };
    }
    const trace = { address: options.address, maxHops: path.bound(), probesPerHop: 1, timeoutMs: options.timeoutMs, paceUs: PACE_US, size: PROBE_SIZE };
    const traced = await traceSession(pinger, trace, cancel);
    if (!traced.ok) return { ok: false, failure: engineFailure(traced.error, aborted) };
    path.fold(traced.hops);
    onCycle(k + 1);
  }
  return { ok: true };
}

// True at `at` (performance.now() time), false as soon as the caller goes away.
function waitUntil(at: number, cancel: CancelToken): Promise<boolean> {
  return promised((done: Answer<boolean>) => {
    const timer = setTimeout(() => {
      stopListening();
      done(true);
    }, Math.max(0, at - performance.now()));
    const stopListening = cancel.onAbort(() => {
      clearTimeout(timer);
      done(false);
    });
  });
}
