import { Counter, type Registry } from 'prom-client';
import { PlainCounter } from '../../observability/plain-counter';
import type { Outcome } from '../outcome';
import type { MtrResult } from './types';

export interface MtrMetrics {
  cycle(): void;
  finished(outcome: Outcome<MtrResult>): void;
}

// Runs by outcome (reached, not-reached, or the failure code), counted as each ends, and cycles as each is
// folded (a stream cut short still counts the cycles it ran). The probes go out on the engine traceroute
// uses: nettools_traceroute_probes_sent_total and nettools_traceroute_unmatched_errors_total count them.
export function watchMtr(registry: Registry): MtrMetrics {
  const runs = new PlainCounter(registry, 'nettools_mtr_runs_total', 'mtr runs by outcome: reached, not-reached, or the failure code.', ['outcome']);
  const cycles = new Counter({ name: 'nettools_mtr_cycles_total', help: 'mtr cycles run (one probe per hop of the path each).', registers: [registry] });
  return {
    cycle: () => cycles.inc(),
    finished(outcome) {
      if (!outcome.ok) return void runs.inc(outcome.failure.code);
      runs.inc(outcome.value.destinationReached ? 'reached' : 'not-reached');
    },
  };
}
