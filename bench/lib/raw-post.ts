// A minimal keep-alive HTTP/1.1 client for benches that time the server's own work: one socket, the
// request bytes written as one buffer, the answer read by its Content-Length. fetch() (undici) spends tens
// of µs of this process's CPU around every request; on a 2-core machine that is CPU the server under test
// and its peers (nginx) then wait for, and the timings would be the bench's.
import net from 'node:net';

export interface RawAnswer {
  status: number;
  body: string;
}

export interface RawPoster {
  post(path: string, json: string): Promise<RawAnswer>;
  close(): void;
}

export function openRawPoster(host: string, port: number): Promise<RawPoster> {
  return new Promise((resolve, reject) => {
    const socket = net.connect({ host, port });
    socket.setNoDelay(true);
    let buffered = Buffer.alloc(0);
    let waiting: ((a: RawAnswer) => void) | null = null;
    let failed: ((e: Error) => void) | null = null;
    socket.on('data', (chunk: Buffer) => {
      buffered = Buffer.concat([buffered, chunk]);
      const answer = takeAnswer();
      if (answer !== null && waiting !== null) {
        const done = waiting;
        waiting = null;
        done(answer);
      }
    });
    socket.on('error', (err) => (failed !== null ? failed(err) : reject(err)));
    function takeAnswer(): RawAnswer | null {
      const end = buffered.indexOf('\r\n\r\n');
      if (end < 0) return null;
      const head = buffered.subarray(0, end).toString('latin1');
      const length = Number(/\r\ncontent-length: *(\d+)/i.exec(head)?.[1] ?? NaN);
      if (!Number.isInteger(length)) throw new Error(`an answer without Content-Length: ${head.slice(0, 200)}`);
      if (buffered.length < end + 4 + length) return null;
      const body = buffered.subarray(end + 4, end + 4 + length).toString('utf8');
      buffered = buffered.subarray(end + 4 + length);
      return { status: Number(head.slice(9, 12)), body };
    }
    socket.once('connect', () =>
      resolve({
        post(path, json) {
          return new Promise<RawAnswer>((ok, fail) => {
            waiting = ok;
            failed = fail;
            socket.write(`POST ${path} HTTP/1.1\r\nHost: ${host}:${port}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(json)}\r\n\r\n${json}`);
          });
        },
        close: () => socket.destroy(),
      }),
    );
  });
}
