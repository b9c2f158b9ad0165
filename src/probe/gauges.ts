import { Gauge, Registry } from 'prom-client';

// One gauge in a registry made for one probe's answer.
export function gauge(registry: Registry, name: string, help: string, value: number, labels?: Record<string, string>): void {
  const g = new Gauge({ name, help, labelNames: labels ? Object.keys(labels) : [], registers: [registry] });
  if (labels) g.set(labels, value);
  else g.set(value);
}

// FNV-1a, as blackbox_exporter hashes the probed address: alerts can see the address change, not what it is.
export function fnv1a32(text: string): number {
  let h = 0x811c9dc5;
  for (const byte of Buffer.from(text)) h = Math.imul(h ^ byte, 0x01000193) >>> 0;
  return h;
}

export const PROBE_SUCCESS_HELP = 'Displays whether or not the probe was a success';
export const PROBE_DURATION_HELP = 'Returns how long the probe took to complete in seconds';

// What blackbox_exporter reports of the target's address for every module that resolves one.
export function addressGauges(registry: Registry, resolveSeconds: number, ipVersion: 4 | 6, address: string): void {
  gauge(registry, 'probe_dns_lookup_time_seconds', 'Returns the time taken for probe dns lookup in seconds', resolveSeconds);
  gauge(registry, 'probe_ip_protocol', 'Specifies whether probe ip protocol is IP4 or IP6', ipVersion);
  gauge(registry, 'probe_ip_addr_hash', "Specifies the hash of IP address. It's useful to detect if the IP address changes.", fnv1a32(address));
}
