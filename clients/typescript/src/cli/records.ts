// DNS records as the API gives them, written as dig writes their data, and matched against --expect.
export type ApiRecord = { address?: string; priority?: number; exchange?: string; value?: string; parts?: string[]; ttl?: number };

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

// Fields are read as text whatever the server put there: a record is data, never a reason to throw.
export function recordData(type: string, r: ApiRecord): string {
  if (type === 'MX') return `${Number(r.priority ?? 0)} ${name(String(r.exchange ?? ''))}`;
  if (type === 'TXT') return (Array.isArray(r.parts) ? r.parts : [r.value ?? '']).map((part) => quote(String(part))).join(' ');
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
