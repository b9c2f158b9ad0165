// DNS records as the API gives them, written as dig writes their data, and matched against --expect.
export type ApiRecord = { address?: string; priority?: number; exchange?: string; value?: string; parts?: string[]; ttl?: number } & Record<string, unknown>;

// BIND's presentation format: a byte outside printable ASCII is `\DDD` (its UTF-8 bytes for a character
// beyond ASCII), and `"` and `\` in a quoted string are escaped. Record data is whoever owns the zone's
// to write: escaped so, it is text on the terminal and never a control sequence.
function presentation(text: string, special: RegExp): string {
  let out = '';
  for (const byte of new TextEncoder().encode(text)) {
    const c = String.fromCharCode(byte);
    if (byte < 0x20 || byte > 0x7e) out += `\\${String(byte).padStart(3, '0')}`;
    else out += special.test(c) ? `\\${c}` : c;
  }
  return out;
}

const quote = (part: string) => `"${presentation(part, /["\\]/)}"`;
const name = (n: string) => presentation(n.endsWith('.') ? n : `${n}.`, /[\\"();\s]/);

const num = (r: ApiRecord, field: string) => String(Number(r[field] ?? 0));
const text = (r: ApiRecord, field: string) => String(r[field] ?? '');
const plain = (value: string) => presentation(value, /[\\\s]/);

// SVCB and HTTPS parameters as dig writes them: key=value, lists joined by commas.
function svcParams(params: unknown): string {
  if (typeof params !== 'object' || params === null) return '';
  return Object.entries(params as Record<string, unknown>)
    .map(([key, value]) => (value === true || value === '' ? plain(key) : `${plain(key)}=${plain(Array.isArray(value) ? value.join(',') : String(value))}`))
    .join(' ');
}

// Each type's RDATA in presentation order, from the fields the API names (docs/dns.md).
const PRESENT: Readonly<Record<string, (r: ApiRecord) => string>> = {
  MX: (r) => `${num(r, 'priority')} ${name(text(r, 'exchange'))}`,
  TXT: (r) => (Array.isArray(r.parts) ? r.parts : [r.value ?? '']).map((part) => quote(String(part))).join(' '),
  NS: (r) => name(text(r, 'name')),
  PTR: (r) => name(text(r, 'name')),
  CNAME: (r) => name(text(r, 'target')),
  SOA: (r) => `${name(text(r, 'mname'))} ${name(text(r, 'rname'))} ${['serial', 'refresh', 'retry', 'expire', 'minimum'].map((f) => num(r, f)).join(' ')}`,
  CAA: (r) => `${num(r, 'flags')} ${plain(text(r, 'tag'))} ${quote(text(r, 'value'))}`,
  SRV: (r) => `${num(r, 'priority')} ${num(r, 'weight')} ${num(r, 'port')} ${name(text(r, 'target'))}`,
  NAPTR: (r) => `${num(r, 'order')} ${num(r, 'preference')} ${quote(text(r, 'flags'))} ${quote(text(r, 'services'))} ${quote(text(r, 'regexp'))} ${name(text(r, 'replacement'))}`,
  DS: (r) => `${num(r, 'keyTag')} ${num(r, 'algorithm')} ${num(r, 'digestType')} ${plain(text(r, 'digest').toUpperCase())}`,
  DNSKEY: (r) => `${num(r, 'flags')} ${num(r, 'protocol')} ${num(r, 'algorithm')} ${plain(text(r, 'publicKey'))}`,
  TLSA: (r) => `${num(r, 'usage')} ${num(r, 'selector')} ${num(r, 'matchingType')} ${plain(text(r, 'data').toUpperCase())}`,
  SVCB: (r) => `${num(r, 'priority')} ${name(text(r, 'target'))} ${svcParams(r['params'])}`.trimEnd(),
  HTTPS: (r) => `${num(r, 'priority')} ${name(text(r, 'target'))} ${svcParams(r['params'])}`.trimEnd(),
};

// Fields are read as text whatever the server put there: a record is data, never a reason to throw.
export function recordData(type: string, r: ApiRecord): string {
  const present = Object.hasOwn(PRESENT, type) ? PRESENT[type] : undefined;
  if (present !== undefined) return present(r);
  return presentation(String(r.address ?? JSON.stringify(r)), /\\/);
}

// What --expect TEXT compares with: TXT's joined value exactly; an address, or an MX exchange (alone or
// after its priority), without regard to case or a trailing dot.
export function recordMatches(type: string, r: ApiRecord, text: string): boolean {
  if (type === 'TXT') return r.value === text;
  const norm = (s: unknown) => String(s).trim().toLowerCase().replace(/\.$/, '');
  const want = norm(text);
  if (type === 'MX') return norm(r.exchange ?? '') === want || norm(`${r.priority} ${r.exchange}`) === want;
  return norm(r.address ?? '') === want;
}
