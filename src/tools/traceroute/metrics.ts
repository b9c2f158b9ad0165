import type { Registry } from 'prom-client';
import { PlainCounter } from '../../observability/plain-counter';
import { familyCounter, type EngineStats } from '../icmp-metrics';
import type { Outcome } from '../outcome';
import type { TracerouteResult } from './types';

export interface TraceMetrics {
  finished(outcome: Outcome<TracerouteResult>): void;
}

// Traces by outcome (reached, not-reached, or the failure code), counted as each ends; the engine's own
// counts are read at scrape time. The engine is the worker's, shared with ping: probes sent are the
// engine's count of trace probes alone, and an ICMP error that quotes a ping's echo is matched to that
// ping, so what stays unmatched is no tool's traffic of ours.
export function watchTracer(registry: Registry, read: EngineStats): TraceMetrics {
  const traces = new PlainCounter(registry, 'nettools_traceroute_traces_total', 'Traces by outcome: reached, not-reached, or the failure code.', ['outcome']);
  familyCounter(registry, 'nettools_traceroute_probes_sent_total', 'Trace probes (echo requests of rising TTL) sent, by traceroute and by mtr cycles alike.', read, 'traceSent');
  const unmatchedHelp = "ICMP errors on the ICMP sockets (one per family per worker, shared by ping and traceroute) that quoted no echo or probe of ours (forged, late or another program's), dropped.";
  familyCounter(registry, 'nettools_traceroute_unmatched_errors_total', unmatchedHelp, read, 'strayErrors');
  return {
    finished(outcome) {
      if (!outcome.ok) return void traces.inc(outcome.failure.code);
      traces.inc(outcome.value.destinationReached ? 'reached' : 'not-reached');
    },
  };
}
