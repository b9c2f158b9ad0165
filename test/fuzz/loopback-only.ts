import { forbiddenRange } from '../../src/policy/target-policy';
import { parseHost } from '../../src/validation/names';

// The fuzzer may send anything, but no ping may ever leave this machine. The server runs with private
// targets refused (so even loopback is never pinged) and resolves names through loopback Knot only;
// this is the other lock: no request goes out carrying, anywhere in it, text that the server's own host
// parser reads as an IP literal outside loopback.

// True when `text`, taken as a ping host, could only ever mean a loopback address or a name.
export function safeHostText(text: string): boolean {
  const host = parseHost(text);
  if (host === null || host.kind === 'name') return true;
  const range = forbiddenRange(host.value);
  return range === 'loopback' || range === 'ipv4-mapped:loopback';
}

// A generated host made safe: a literal outside loopback becomes loopback.
export const loopbackOnly = (text: string): string => (safeHostText(text) ? text : '127.0.0.1');

// Without recursion: bodies nest up to 2,000 deep, and the fuzzer's own stack must not be what fails.
function everyString(root: unknown, ok: (s: string) => boolean): boolean {
  const pending: unknown[] = [root];
  while (pending.length > 0) {
    const value = pending.pop();
    if (typeof value === 'string') {
      if (!ok(value)) return false;
    } else if (Array.isArray(value)) pending.push(...value);
    else if (value !== null && typeof value === 'object') {
      for (const [k, v] of Object.entries(value)) {
        if (!ok(k)) return false;
        pending.push(v);
      }
    }
  }
  return true;
}

// The server decodes with TextDecoder (which drops one leading BOM) and fails on bad UTF-8; decoding
// leniently here finds every string it could ever see, and Buffer's decoding (which keeps the BOM)
// is checked too in case the two ever differ.
function parsedBodies(bytes: Uint8Array): unknown[] {
  const texts = [new TextDecoder('utf-8').decode(bytes), Buffer.from(bytes).toString('utf8').replace(/^\ufeff+/, '')];
  const out: unknown[] = [];
  for (const text of texts) {
    try {
      out.push(JSON.parse(text));
    } catch {
      // not JSON: the server refuses it before any tool runs
    }
  }
  return out;
}

// Whether a request may be sent: every string in its body and every query name and value is safe.
export function requestIsLoopbackOnly(path: string, body: Uint8Array | undefined): boolean {
  const query = path.includes('?') ? path.slice(path.indexOf('?') + 1) : '';
  for (const [name, value] of new URLSearchParams(query)) if (!safeHostText(name) || !safeHostText(value)) return false;
  return body === undefined || parsedBodies(body).every((b) => everyString(b, safeHostText));
}
