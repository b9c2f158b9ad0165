import { Gauge, Registry } from 'prom-client';
import { addressGauges, gauge, PROBE_DURATION_HELP, PROBE_SUCCESS_HELP } from '../../probe/gauges';
import type { Outcome } from '../outcome';
import { HOST_PORT_POINTERS, hostPortBody } from '../host-port-probe';
import type { ProbeSpec } from '../tool';
import type { CertificateFacts, SessionFacts, TlsRequest, TlsResult } from './types';

// blackbox_exporter's tcp module with tls: true: one handshake, its certificate verified.
export const tlsProbe: ProbeSpec<TlsRequest, TlsResult> = {
  module: 'tls',
  params: {
    server_name: 'tls: the SNI and the name the certificate is checked against (default: the target host when a name)',
  },
  body(target, get) {
    const read = hostPortBody(target, get);
    if ('errors' in read) return read;
    const serverName = get('server_name');
    return { body: serverName === undefined ? read.body : { ...read.body, serverName } };
  },
  pointers: [...HOST_PORT_POINTERS, [/^\/serverName$/, '/server_name']],
  failuresAsMetrics: new Set(['host-not-found', 'upstream-failed', 'upstream-timeout']),
  exposition: (outcome, _request, seconds) => tlsExposition(outcome, seconds),
};

async function tlsExposition(outcome: Outcome<TlsResult>, durationSeconds: number): Promise<string> {
  const registry = new Registry();
  const result = outcome.ok ? outcome.value : null;
  // As blackbox's: the handshake completed and the certificate verified.
  gauge(registry, 'probe_success', PROBE_SUCCESS_HELP, result?.status === 'handshake' && result.verified === true ? 1 : 0);
  gauge(registry, 'probe_duration_seconds', PROBE_DURATION_HELP, durationSeconds);
  if (result === null) return registry.metrics();
  addressGauges(registry, result.timings.resolveMs / 1000, result.ipVersion, result.address);
  const phases = new Gauge({ name: 'nettools_probe_tls_duration_seconds', help: 'Duration of the tls probe by phase: resolve, connect, handshake (from the connect call)', labelNames: ['phase'], registers: [registry] });
  phases.set({ phase: 'resolve' }, result.timings.resolveMs / 1000);
  if (result.timings.connectMs !== undefined) phases.set({ phase: 'connect' }, result.timings.connectMs / 1000);
  if (result.timings.handshakeMs !== undefined) phases.set({ phase: 'handshake' }, result.timings.handshakeMs / 1000);
  sslGauges(registry, result);
  return registry.metrics();
}

// What blackbox_exporter reports of a TLS session (the tls module, and the http module over https).
export function sslGauges(registry: Registry, session: Partial<Pick<SessionFacts, 'certificates' | 'protocol'>>): void {
  const certificates = session.certificates ?? [];
  if (certificates.length > 0) {
    const earliest = Math.min(...sentChain(certificates).map((c) => Date.parse(c.notAfter) / 1000));
    gauge(registry, 'probe_ssl_earliest_cert_expiry', 'Returns last SSL chain expiry in unixtime', earliest);
    // One chain is reported (the one the server sent): its last expiry is its earliest certificate's.
    gauge(registry, 'probe_ssl_last_chain_expiry_timestamp_seconds', 'Returns last SSL chain expiry in timestamp', earliest);
  }
  // blackbox names versions as Go does: "TLS 1.3".
  if (session.protocol !== undefined) gauge(registry, 'probe_tls_version_info', 'Returns the TLS version used or NaN when unknown', 1, { version: session.protocol.replace(/^TLSv/, 'TLS ') });
}

// blackbox_exporter reads these metrics from the certificates the server sent (Go's PeerCertificates), not
// from the verified chain: the trust anchor Node appends from the store is left out (a leaf that is itself
// an anchor was sent). A server that also sends its root has it left out here and counted by blackbox.
function sentChain(certificates: CertificateFacts[]): CertificateFacts[] {
  return certificates.filter((c, i) => i === 0 || c.trustAnchor !== true);
}
