import { connect } from 'node:net';

// One keep-alive connection, one request at a time: the instruction count's load. wrk would send as many
// requests as it can in a time; this sends an exact number, each the same bytes as in any other run (a
// "{fresh}" in the body becomes a label of fixed width, so only the label's characters differ).

export interface SequentialLoad {
  port: number;
  path: string;
  body: string;
  count: number;
  // Labels are `${prefix}${n}` padded to one width: a prefix per segment keeps every name of a run new.
  labelPrefix: string;
  expectedStatus: number;
  timeoutMs: number; // for each answer
}

const LABEL_DIGITS = 7;

export function requestBytes(port: number, path: string, body: string, label: string): Buffer {
  const filled = body.replace('{fresh}', label);
  return Buffer.from(`POST ${path} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(filled)}\r\n\r\n${filled}`);
}

export function freshLabel(prefix: string, n: number): string {
  return prefix + String(n).padStart(LABEL_DIGITS, '0');
}

// Where the first complete response in `buf` ends and its status, or null while it is incomplete.
export function completeResponse(buf: Buffer): { end: number; status: number } | null {
  const headEnd = buf.indexOf('\r\n\r\n');
  if (headEnd < 0) return null;
  const head = buf.subarray(0, headEnd).toString('latin1');
  const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(head)?.[1] ?? 0);
  const length = Number(/\r\ncontent-length: *(\d+)/i.exec(head)?.[1] ?? 0);
  const end = headEnd + 4 + length;
  return buf.length < end ? null : { end, status };
}

// Resolves with the number answered once all were; rejects on the first unexpected status, a closed
// connection or an answer later than timeoutMs.
export function sendSequential(load: SequentialLoad): Promise<number> {
  return new Promise((resolve, reject) => {
    const sock = connect({ host: '127.0.0.1', port: load.port });
    let answered = 0;
    let buf: Buffer = Buffer.alloc(0);
    const fail = (why: string) => {
      sock.destroy();
      reject(new Error(`${load.path} request ${answered + 1} of ${load.count}: ${why}`));
    };
    const next = () => sock.write(requestBytes(load.port, load.path, load.body, freshLabel(load.labelPrefix, answered)));
    sock.setTimeout(load.timeoutMs, () => fail(`no answer within ${load.timeoutMs} ms`));
    sock.once('connect', next);
    sock.on('error', (err) => fail(err.message));
    sock.on('close', () => answered < load.count && fail('the server closed the connection'));
    sock.on('data', (chunk: Buffer) => {
      buf = buf.length === 0 ? chunk : Buffer.concat([buf, chunk]);
      for (let done = completeResponse(buf); done !== null; done = completeResponse(buf)) {
        if (done.status !== load.expectedStatus) return fail(`status ${done.status}, not ${load.expectedStatus}`);
        buf = buf.subarray(done.end);
        if (++answered === load.count) {
          sock.end();
          return resolve(answered);
        }
        next();
      }
    });
  });
}
