// An answer's headers as the check reports them: bounded, since a server may send anything, and without
// a cookie's value (no cookie is kept, and none is repeated to the caller).
export const MAX_HEADERS = 64;
export const MAX_HEADER_BYTES = 16_384;

export interface ReportedHeaders {
  headers: Record<string, string>;
  truncated: boolean;
}

// `raw`: name, value, name, value... as they came. Names lower-cased; a name given twice is one entry,
// its values joined with ", "; the caps count the names and values kept.
export function reportHeaders(raw: readonly string[]): ReportedHeaders {
  const headers: Record<string, string> = Object.create(null) as Record<string, string>;
  let count = 0;
  let bytes = 0;
  let truncated = false;
  for (let i = 0; i + 1 < raw.length; i += 2) {
    const name = (raw[i] as string).toLowerCase();
    const value = name === 'set-cookie' ? `${Buffer.byteLength(raw[i + 1] as string)} bytes` : (raw[i + 1] as string);
    const known = headers[name];
    const size = known === undefined ? name.length + value.length : value.length + 2;
    if ((known === undefined && count === MAX_HEADERS) || bytes + size > MAX_HEADER_BYTES) {
      truncated = true;
      continue;
    }
    if (known === undefined) count++;
    bytes += size;
    headers[name] = known === undefined ? value : `${known}, ${value}`;
  }
  return { headers: { ...headers }, truncated };
}
