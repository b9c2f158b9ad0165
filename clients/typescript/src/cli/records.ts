// DNS records as the API gives them, written as dig writes their data, and matched against --expect.
export type ApiRecord = { address?: string; priority?: number; exchange?: string; value?: string; parts?: string[]; ttl?: number };

const quote = (part: string) => `"${part.replace(/[\\"]/g, (c) => `\\${c}`)}"`;
const fqdn = (name: string) => (name.endsWith('.') ? name : `${name}.`);

export function recordData(type: string, r: ApiRecord): string {
  if (type === 'MX') return `${r.priority ?? 0} ${fqdn(r.exchange ?? '')}`;
  if (type === 'TXT') return (r.parts ?? [r.value ?? '']).map(quote).join(' ');
  return r.address ?? JSON.stringify(r);
}

// What --expect TEXT compares with: TXT's joined value exactly; an address, or an MX exchange (alone or
// after its priority), without regard to case or a trailing dot.
export function recordMatches(type: string, r: ApiRecord, text: string): boolean {
  if (type === 'TXT') return r.value === text;
  const norm = (s: string) => s.trim().toLowerCase().replace(/\.$/, '');
  const want = norm(text);
  if (type === 'MX') return norm(r.exchange ?? '') === want || norm(`${r.priority} ${r.exchange}`) === want;
  return norm(r.address ?? '') === want;
}
