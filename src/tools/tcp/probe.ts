import { Gauge, Registry } from 'prom-client';
import { addressGauges, gauge, PROBE_DURATION_HELP, PROBE_SUCCESS_HELP } from '../../probe/gauges';
import { integerParam } from '../../probe/query';
import type { Outcome } from '../outcome';
import { HOST_PORT_POINTERS, hostPortBody } from '../host-port-probe';
import type { ProbeSpec } from '../tool';
import type { TcpRequest, TcpResult } from './types';

// blackbox_exporter's tcp module: one connection by default, no byte sent (no query_response here).
export const tcpProbe: ProbeSpec<TcpRequest, TcpResult> = {
  module: 'tcp',
  params: {
    ip_protocol: 'icmp, tcp: ip4 or ip6 (blackbox_exporter naming)',
    count: 'icmp: echo requests, tcp: connection attempts, 1..10 (1)',
  },
  body(target, get) {
    const read = hostPortBody(target, get);
    if ('errors' in read) return read;
    return { body: { ...read.body, count: integerParam(get('count')) ?? 1 } };
  },
  pointers: HOST_PORT_POINTERS,
  // No address is a failed probe, as blackbox_exporter reports it; refusals stay problems.
  failuresAsMetrics: new Set(['host-not-found', 'upstream-failed', 'upstream-timeout']),
  exposition: (outcome, _request, seconds) => tcpExposition(outcome, seconds),
};

async function tcpExposition(outcome: Outcome<TcpResult>, durationSeconds: number): Promise<string> {
  const registry = new Registry();
  const result = outcome.ok ? outcome.value : null;
  // Every attempt must connect, as blackbox's one connection must.
  gauge(registry, 'probe_success', PROBE_SUCCESS_HELP, result !== null && result.attempts.connected === result.attempts.sent ? 1 : 0);
  gauge(registry, 'probe_duration_seconds', PROBE_DURATION_HELP, durationSeconds);
  if (result) {
    addressGauges(registry, result.resolveMs / 1000, result.ipVersion, result.address);
    const phases = new Gauge({ name: 'nettools_probe_tcp_duration_seconds', help: 'Duration of the tcp probe by phase: resolve, and connect (the mean over the attempts that connected)', labelNames: ['phase'], registers: [registry] });
    phases.set({ phase: 'resolve' }, result.resolveMs / 1000);
    if (result.connectMs) phases.set({ phase: 'connect' }, result.connectMs.avg / 1000);
    gauge(registry, 'nettools_probe_tcp_attempts_sent', 'Connection attempts made by this probe', result.attempts.sent);
    gauge(registry, 'nettools_probe_tcp_attempts_connected', 'Connection attempts of this probe that connected', result.attempts.connected);
  }
  return registry.metrics();
}
