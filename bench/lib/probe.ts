import { request } from 'node:http';

export interface ProbeReply {
  status: number;
  code: string | null; // a problem body's `code`
  body: string;
}

// One POST, as the load generator will send it, to see what the endpoint answers before measuring.
export function probe(url: string, path: string, body: string, header?: string, timeoutMs = 10_000): Promise<ProbeReply> {
  const extra = header === undefined ? {} : { [header.slice(0, header.indexOf(':'))]: header.slice(header.indexOf(':') + 1).trim() };
  return new Promise((resolve, reject) => {
    const req = request(`${url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body), ...extra }, timeout: timeoutMs }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString();
        resolve({ status: res.statusCode ?? 0, code: problemCode(text), body: text });
      });
    });
    req.on('timeout', () => req.destroy(new Error(`no answer within ${timeoutMs} ms`)));
    req.on('error', reject);
    req.end(body);
  });
}

export function problemCode(text: string): string | null {
  try {
    const value = JSON.parse(text) as unknown;
    if (typeof value === 'object' && value !== null && typeof (value as { code?: unknown }).code === 'string') return (value as { code: string }).code;
  } catch {
    // not JSON
  }
  return null;
}

// What a scenario reports when the endpoint does not answer as it must be measured.
export function unavailableReason(reply: ProbeReply, expectedStatus: number, expectedCode: string | null): string | null {
  if (reply.status === expectedStatus && (expectedCode === null || reply.code === expectedCode)) return null;
  return `unavailable: ${reply.status} ${reply.code ?? '(no code)'}`;
}
