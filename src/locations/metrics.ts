import { Histogram, type Registry } from 'prom-client';
import { PlainCounter } from '../observability/plain-counter';

// What a hub counts of its locations. Location names come from the operator's agent keys (and the hub's
// own name): a bounded label set, as the tool names and failure codes are.
export interface LocationMetrics {
  dispatched(location: string, tool: string): void;
  ended(location: string, outcome: string): void; // `ok`, or the failure code
  roundTrip(seconds: number): void; // a WebSocket ping to an agent and its pong
}

export const NO_LOCATION_METRICS: LocationMetrics = { dispatched() {}, ended() {}, roundTrip() {} };

export function watchLocations(registry: Registry): LocationMetrics {
  const dispatched = new PlainCounter(registry, 'nettools_location_dispatches_total', 'Measurements of requests with locations, by location and tool (the hub\'s own location included).', ['location', 'tool']);
  const ended = new PlainCounter(registry, 'nettools_location_outcomes_total', 'Those measurements as they ended, by location and outcome: ok, or the failure code (location-offline when its agent went away or was cut off).', ['location', 'outcome']);
  const rtt = new Histogram({
    name: 'nettools_agent_round_trip_seconds',
    help: 'Time from the hub\'s heartbeat ping to an agent to its pong.',
    buckets: [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5],
    registers: [registry],
  });
  return {
    dispatched: (location, tool) => dispatched.inc(location, tool),
    ended: (location, outcome) => ended.inc(location, outcome),
    roundTrip: (seconds) => rtt.observe(seconds),
  };
}
