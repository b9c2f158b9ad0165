// JSON *text*, not JSON values: a value tree can hold neither a duplicate key, nor `1e309` as written,
// nor a lone surrogate as raw bytes, nor invalid UTF-8. Hostile bodies are built as this tree and
// written out byte for byte.

// A piece of a JSON string's contents: text (escaped as JSON.stringify escapes it, so a lone surrogate
// becomes `\ud800`), or bytes written as they are (invalid UTF-8, raw control characters).
export type StrPart = string | { bytes: number[] };

export type JText =
  | { k: 'lit'; text: string } // a token written as is: 1e309, -0, true, null, or a broken one
  | { k: 'str'; parts: StrPart[] }
  | { k: 'arr'; items: JText[] }
  | { k: 'obj'; members: Array<[JText & { k: 'str' }, JText]> } // duplicate keys allowed
  | { k: 'raw'; bytes: number[] }; // bytes between tokens as they are (deep nesting, stray bytes)

export const lit = (text: string): JText => ({ k: 'lit', text });
export const str = (...parts: StrPart[]): JText & { k: 'str' } => ({ k: 'str', parts });
export const arr = (items: JText[]): JText => ({ k: 'arr', items });
export const obj = (members: Array<[string | (JText & { k: 'str' }), JText]>): JText => ({
  k: 'obj',
  members: members.map(([key, value]) => [typeof key === 'string' ? str(key) : key, value]),
});

// A plain JSON value as text.
export function fromValue(value: unknown): JText {
  if (typeof value === 'string') return str(value);
  if (Array.isArray(value)) return arr(value.map(fromValue));
  if (value !== null && typeof value === 'object') return obj(Object.entries(value).map(([k, v]) => [k, fromValue(v)]));
  return lit(JSON.stringify(value) ?? 'null');
}

function strBytes(parts: StrPart[], out: number[]): void {
  out.push(0x22);
  for (const part of parts) {
    if (typeof part === 'string') out.push(...Buffer.from(JSON.stringify(part).slice(1, -1), 'utf8'));
    else out.push(...part.bytes);
  }
  out.push(0x22);
}

function write(node: JText, out: number[]): void {
  switch (node.k) {
    case 'lit':
      return void out.push(...Buffer.from(node.text, 'utf8'));
    case 'raw':
      return void out.push(...node.bytes);
    case 'str':
      return strBytes(node.parts, out);
    case 'arr':
      out.push(0x5b);
      node.items.forEach((item, i) => (i > 0 && out.push(0x2c), write(item, out)));
      return void out.push(0x5d);
    case 'obj':
      out.push(0x7b);
      node.members.forEach(([key, value], i) => (i > 0 && out.push(0x2c), strBytes(key.parts, out), out.push(0x3a), write(value, out)));
      return void out.push(0x7d);
  }
}

export function toBytes(node: JText): Buffer {
  const out: number[] = [];
  write(node, out);
  return Buffer.from(out);
}

// Bytes as a reader can copy them back: printable ASCII as is, everything else as \xNN.
export function showBytes(bytes: Uint8Array, max = 600): string {
  let text = '';
  for (const b of bytes.subarray(0, max)) text += b >= 0x20 && b < 0x7f && b !== 0x5c ? String.fromCharCode(b) : `\\x${b.toString(16).padStart(2, '0')}`;
  return bytes.length > max ? `${text}... (${bytes.length} bytes)` : text;
}
